# osdhist: clang builds the BPF object, bpftool makes the skeleton, the
# system cc links the loader against Debian's libbpf, libelf and zlib.

CC       ?= cc
CLANG    ?= clang
BPFTOOL  ?= bpftool
CFLAGS   ?= -O2 -g
CFLAGS   += -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE
CPPFLAGS += -Ibuild -Imaps -Iloader
LDLIBS   += -lbpf -lelf -lz
PREFIX   ?= /usr/local
OUT      := build

LOADER_SRCS := $(wildcard loader/*.c)
LIB_SRCS    := $(filter-out loader/main.c,$(LOADER_SRCS))
LIB_OBJS    := $(LIB_SRCS:loader/%.c=$(OUT)/%.o)
UNIT_SRCS   := $(wildcard tests/unit/*.c)

.PHONY: all deps clean test unit-test integration-test demo bench

all: deps osdhist

deps:
	@scripts/setup.sh

$(OUT):
	@mkdir -p $@

$(OUT)/vmlinux.h: | $(OUT)
	$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > $@.tmp && mv $@.tmp $@

$(OUT)/osdhist.bpf.o: bpf/osdhist.bpf.c maps/osdhist.h $(OUT)/vmlinux.h
	$(CLANG) -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall -Werror \
		-Ibuild -Imaps -c $< -o $@

$(OUT)/osdhist.skel.h: $(OUT)/osdhist.bpf.o
	$(BPFTOOL) gen skeleton $< name osdhist_bpf > $@.tmp && mv $@.tmp $@

$(OUT)/%.o: loader/%.c $(wildcard loader/*.h) maps/osdhist.h $(OUT)/osdhist.skel.h
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

osdhist: $(OUT)/main.o $(LIB_OBJS)
	$(CC) $(CFLAGS) $^ $(LDLIBS) -lm -o $@

$(OUT)/unit_tests: $(UNIT_SRCS) $(LIB_OBJS)
	$(CC) $(CPPFLAGS) $(CFLAGS) -Itests/unit $^ $(LDLIBS) -lm -lcmocka -o $@

unit-test: deps $(OUT)/unit_tests
	@$(OUT)/unit_tests

integration-test: all
	@tests/run-integration.sh

# The one test command (README, .ci/run): unit tests, then integration tests
# on throwaway clusters, then one summary line.
test: all $(OUT)/unit_tests
	@tests/run-all.sh

demo: all
	@scripts/demo.sh

bench: all
	@bench/run.sh

clean:
	rm -rf $(OUT) osdhist
