# osdhist: clang builds the BPF object, bpftool makes the skeleton, the
# system cc links the loader against Debian's libbpf, libelf and zlib.

CC       ?= cc
CLANG    ?= clang
BPFTOOL  ?= bpftool
CFLAGS   ?= -O2 -g
CFLAGS   += -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE
CPPFLAGS += -Ibuild -Imaps -Iloader
LDLIBS   += -lbpf -lelf -lz -lcapstone
# '=' not ':=': expanded when used, after `deps` may have installed it
MHD_FLAGS = $(shell pkg-config --cflags libmicrohttpd 2>/dev/null)
LDLIBS   += $(shell pkg-config --libs libmicrohttpd 2>/dev/null || echo -lmicrohttpd)
# json-c parses perf dump answers (loader/asok.c)
JSON_FLAGS = $(shell pkg-config --cflags json-c 2>/dev/null)
LDLIBS   += $(shell pkg-config --libs json-c 2>/dev/null || echo -ljson-c)
PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
UNITDIR  ?= $(PREFIX)/lib/systemd/system
MANDIR   ?= $(PREFIX)/share/man
OUT      := build

LOADER_SRCS := $(wildcard loader/*.c)
LIB_SRCS    := $(filter-out loader/main.c,$(LOADER_SRCS))
LIB_OBJS    := $(LIB_SRCS:loader/%.c=$(OUT)/%.o)
UNIT_SRCS   := $(wildcard tests/unit/*.c)

.PHONY: all deps clean test unit-test integration-test demo bench bench-duty bench-waits install

all: deps osdhist

deps:
	@scripts/setup.sh

$(OUT):
	@mkdir -p $@

# The build needs kernel BTF for vmlinux.h.  The programs use no CO-RE
# relocation, so loading should not need it (not tested without BTF).
$(OUT)/vmlinux.h: | $(OUT)
	@test -r /sys/kernel/btf/vmlinux || { echo "make: this kernel has no BTF" \
		"(/sys/kernel/btf/vmlinux): build on a kernel with CONFIG_DEBUG_INFO_BTF," \
		"then copy ./osdhist" >&2; exit 1; }
	$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > $@.tmp && mv $@.tmp $@

$(OUT)/osdhist.bpf.o: bpf/osdhist.bpf.c maps/osdhist.h $(OUT)/vmlinux.h
	$(CLANG) -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall -Werror \
		-Ibuild -Imaps -c $< -o $@

$(OUT)/osdhist.skel.h: $(OUT)/osdhist.bpf.o
	$(BPFTOOL) gen skeleton $< name osdhist_bpf > $@.tmp && mv $@.tmp $@

$(OUT)/%.o: loader/%.c $(wildcard loader/*.h) maps/osdhist.h $(OUT)/osdhist.skel.h
	$(CC) $(CPPFLAGS) $(MHD_FLAGS) $(JSON_FLAGS) $(CFLAGS) -c $< -o $@

osdhist: $(OUT)/main.o $(LIB_OBJS)
	$(CC) $(CFLAGS) $^ $(LDLIBS) -lm -o $@

# The test build: the whole loader compiled again with OSDHIST_TEST_HOOKS
# (loader/testhooks.h: faults driven by environment variables), into another
# binary; ./osdhist never honours them.
TH_OBJS := $(LOADER_SRCS:loader/%.c=$(OUT)/th/%.o)

$(OUT)/th/%.o: loader/%.c $(wildcard loader/*.h) maps/osdhist.h $(OUT)/osdhist.skel.h
	@mkdir -p $(OUT)/th
	$(CC) $(CPPFLAGS) $(MHD_FLAGS) $(JSON_FLAGS) $(CFLAGS) -DOSDHIST_TEST_HOOKS -c $< -o $@

$(OUT)/osdhist-testhooks: $(TH_OBJS)
	$(CC) $(CFLAGS) $^ $(LDLIBS) -lm -o $@

$(OUT)/unit_tests: $(UNIT_SRCS) $(LIB_OBJS)
	$(CC) $(CPPFLAGS) $(JSON_FLAGS) $(CFLAGS) -Itests/unit $^ $(LDLIBS) -lm -lcmocka -o $@

unit-test: deps $(OUT)/unit_tests
	@$(OUT)/unit_tests

integration-test: all
	@tests/run-integration.sh

# The one test command (README, .ci/run): unit tests, then integration tests
# on throwaway clusters, then one summary line.
test: all $(OUT)/unit_tests $(OUT)/osdhist-testhooks
	@tests/run-all.sh

demo: all
	@scripts/demo.sh

bench: all
	@bench/run.sh

bench-duty: all
	@bench/duty.sh

bench-waits: all
	@bench/waits.sh

# The unit's ExecStart names the installed binary: generated from
# dist/osdhist.service.in with BINDIR substituted.
install: osdhist
	install -D -m 0755 osdhist $(DESTDIR)$(BINDIR)/osdhist
	install -d $(DESTDIR)$(UNITDIR)
	sed 's|@BINDIR@|$(BINDIR)|g' dist/osdhist.service.in > $(DESTDIR)$(UNITDIR)/osdhist.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/osdhist.service
	install -D -m 0644 dist/osdhist.8 $(DESTDIR)$(MANDIR)/man8/osdhist.8

clean:
	rm -rf $(OUT) osdhist
