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
PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
UNITDIR  ?= $(PREFIX)/lib/systemd/system
MANDIR   ?= $(PREFIX)/share/man
OUT      := build

LOADER_SRCS := $(wildcard loader/*.c)
LIB_SRCS    := $(filter-out loader/main.c,$(LOADER_SRCS))
LIB_OBJS    := $(LIB_SRCS:loader/%.c=$(OUT)/%.o)
UNIT_SRCS   := $(wildcard tests/unit/*.c)

.PHONY: all deps clean test unit-test integration-test demo bench bench-duty install fuzz

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
	$(CC) $(CPPFLAGS) $(MHD_FLAGS) $(CFLAGS) -c $< -o $@

osdhist: $(OUT)/main.o $(LIB_OBJS)
	$(CC) $(CFLAGS) $^ $(LDLIBS) -lm -o $@

$(OUT)/unit_tests: $(UNIT_SRCS) $(LIB_OBJS)
	$(CC) $(CPPFLAGS) $(CFLAGS) -Itests/unit $^ $(LDLIBS) -lm -lcmocka -o $@

unit-test: deps $(OUT)/unit_tests
	@$(OUT)/unit_tests

integration-test: all
	@tests/run-integration.sh

# The fuzz target: a tenant's file named ceph-osd reaches libelf and the
# offset derivation as root, so that path runs under libFuzzer with ASan and
# UBSan.  derive.c joins the harness as soon as it exists (a wildcard, not a
# list to keep in step).  fuzz_binary_cov is the same harness with clang's
# source coverage, to show which lines the seeds and the corpus reach.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 180
FUZZ_SRCS     = tests/fuzz/fuzz_binary.c loader/binary.c \
		$(wildcard loader/derive.c loader/symtrace.c)
FUZZ_HDRS     = loader/binary.h $(wildcard loader/derive.h loader/symtrace.h) maps/osdhist.h
FUZZ_CS       = $(if $(wildcard loader/derive.c),capstone)
FUZZ_CFLAGS   = -g -O1 -fno-omit-frame-pointer -std=c11 -Wall -Wextra -Werror \
		-D_GNU_SOURCE $(CPPFLAGS) $(if $(FUZZ_CS),$(shell pkg-config --cflags capstone))
FUZZ_LIBS     = -lelf -lz $(if $(FUZZ_CS),$(shell pkg-config --libs capstone || echo -lcapstone))

$(OUT)/fuzz_binary: $(FUZZ_SRCS) $(FUZZ_HDRS) | $(OUT)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all $(FUZZ_SRCS) $(FUZZ_LIBS) -o $@

$(OUT)/fuzz_binary_cov: $(FUZZ_SRCS) $(FUZZ_HDRS) | $(OUT)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -fprofile-instr-generate \
		-fcoverage-mapping $(FUZZ_SRCS) $(FUZZ_LIBS) -o $@

# The DWARF oracle of test_dwarf.sh: the offsets osdhist derives from code,
# read from Debian's ceph-osd-dbg with libdw instead.  Test-only.
$(OUT)/dwarf_offsets: tests/dwarf/dwarf_offsets.c | $(OUT)
	$(CC) $(CFLAGS) $< -ldw -lelf -o $@

# Runs the fuzzer FUZZ_SECONDS on a corpus kept in build/fuzz-corpus; the
# test suite runs the same script for 120 s on a throwaway corpus.
fuzz: deps $(OUT)/fuzz_binary $(OUT)/fuzz_binary_cov
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_CORPUS=$(CURDIR)/$(OUT)/fuzz-corpus \
		tests/integration/test_fuzz.sh

# The one test command (README, .ci/run): unit tests, then integration tests
# on throwaway clusters, then one summary line.
test: all $(OUT)/unit_tests
	@tests/run-all.sh

demo: all
	@scripts/demo.sh

bench: all
	@bench/run.sh

bench-duty: all
	@bench/duty.sh

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
