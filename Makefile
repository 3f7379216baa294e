# osdhist: clang builds the BPF object, bpftool makes the skeleton, the
# system cc links the loader against Debian's libbpf, libelf and zlib.
#
# `make` builds ./osdhist with the build dependencies only (no root, nothing
# installed); `make demo`, `make test` and `make bench` first run
# scripts/setup.sh, which installs everything they need, Ceph included.

CC       ?= cc
CLANG    ?= clang
# extra clang flags for the BPF object (bench/ablate.sh's stages)
BPF_CFLAGS ?=
# Debian puts bpftool in /usr/sbin, which a non-root PATH often lacks.
BPFTOOL  ?= $(shell command -v bpftool 2>/dev/null || echo /usr/sbin/bpftool)
PKG_CONFIG ?= pkg-config
CFLAGS   ?= -O2 -g

# ARCH=arm64 (issue 42): `make static` cross-built for AArch64 with
# Debian's gcc-aarch64-linux-gnu, the arm64 .a files installed through
# multiarch (dpkg --add-architecture arm64; scripts/setup.sh static-arm64)
# and pkgconf's aarch64-linux-gnu-pkg-config, into build/arm64/.  The BPF
# object is built for arm64's pt_regs (bpf/arch.bpf.h); clang, bpftool and
# vmlinux.h stay the host's.  Only the static binary (and its packages) is
# built for arm64: the tests, the fuzzers and the bench run the host's.
# The default is the host's own: on an arm64 host a plain build would
# otherwise pair an arm64 loader with x86's BPF object.
ARCH     ?= $(if $(filter aarch64 arm64,$(shell uname -m)),arm64,x86)
ARM64_CC ?= aarch64-linux-gnu-gcc
ifneq ($(filter $(ARCH),arm64 aarch64),)
ARCH     := arm64
TRIPLET  := aarch64-linux-gnu
CC       := $(ARM64_CC)
PKG_CONFIG := $(TRIPLET)-pkg-config
# the Debian packages that give CC and PKG_CONFIG; a library's is NAME:arm64
CC_PKG   := gcc-$(TRIPLET)
PC_PKG   := pkgconf:arm64
DEB_SUFFIX := :arm64
ARCH_OUT := build/arm64
ARCH_OK_GOALS := static static-deps rpm install clean build/arm64/osdhist-static \
	build/arm64/osdhist.bpf.o build/arm64/osdhist.skel.h
# what `make install` installs: the static binary, the one arm64 build
INSTALL_BIN ?= $(ARCH_OUT)/osdhist-static
ifneq ($(filter-out $(ARCH_OK_GOALS),$(or $(MAKECMDGOALS),all)),)
$(error for arm64 (ARCH=arm64) osdhist builds only 'make static' and 'make rpm' \
	so far, not '$(filter-out $(ARCH_OK_GOALS),$(or $(MAKECMDGOALS),all))': build that \
	on an x86-64 host, with ARCH=x86)
endif
else ifneq ($(filter $(ARCH),x86 x86_64 amd64),)
ARCH     := x86
CC_PKG   := gcc
PC_PKG   := pkg-config
DEB_SUFFIX :=
ARCH_OUT := build
else
$(error ARCH=$(ARCH): osdhist builds for x86 (the default) or arm64)
endif
# the flags as given, before ours: libmicrohttpd's own build (make static)
# gets these, not our -std=c11 -Werror
BASE_CFLAGS := $(CFLAGS)
CFLAGS   += -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE
CPPFLAGS += -Ibuild -Imaps -Iloader
# Each object's headers, as the compiler saw them, go to a .d file beside
# it (included at the end): a header change rebuilds only what includes it.
# -MP: a header deleted since is no error.
DEPFLAGS := -MMD -MP
LDFLAGS  ?=

# Libraries, one line each: "pkg-config name:Debian package".  The link
# line and the missing-dependency message both come from this list.
BUILD_LIBS := libbpf:libbpf-dev libelf:libelf-dev zlib:zlib1g-dev
BUILD_LIBS += libmicrohttpd:libmicrohttpd-dev
# capstone disassembles the OSD's code (loader/ceph/symtrace_*.c, binary.c); json-c
# parses perf dump answers (loader/ceph/asok.c)
BUILD_LIBS += capstone:libcapstone-dev json-c:libjson-c-dev
# ncursesw draws --top (loader/output/top.c)
BUILD_LIBS += ncursesw:libncurses-dev
BUILD_PCS   = $(foreach l,$(BUILD_LIBS),$(firstword $(subst :, ,$(l))))
# what build-deps checks: the static build brings its own libmicrohttpd
DEPS_LIBS   = $(BUILD_LIBS)
# '=': expanded when used, so a make that only cleans never runs pkg-config
PC_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(BUILD_PCS) 2>/dev/null)
LDLIBS   += $(shell $(PKG_CONFIG) --libs $(BUILD_PCS) 2>/dev/null)
LDLIBS   += -lm
# the oldest libbpf the loader is built and tested with (bookworm-backports)
LIBBPF_MIN := 1.4

PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
UNITDIR  ?= $(PREFIX)/lib/systemd/system
MANDIR   ?= $(PREFIX)/share/man
DATADIR  ?= $(PREFIX)/share/osdhist
OUT      := build

LOADER_SRCS := $(wildcard loader/*.c loader/*/*.c)
LOADER_HDRS := $(wildcard loader/*.h loader/*/*.h)
LIB_SRCS    := $(filter-out loader/cli/main.c,$(LOADER_SRCS))
LIB_OBJS    := $(LIB_SRCS:loader/%.c=$(OUT)/%.o)
UNIT_SRCS   := $(wildcard tests/unit/*.c)

.PHONY: all deps build-deps static-deps static rpm image clean test unit-test demo bench bench-duty bench-waits bench-alloc bench-ablate bench-loader bench-top bench-contention bench-pair bench-stages install fuzz fuzz-linked

all: osdhist

# Everything the demo, the tests and the bench need (root: apt-get).
deps:
	@scripts/setup.sh

# Build dependencies only: one line naming what is missing and how to get
# it.  Order-only prerequisite of the first build steps, so it runs on every
# make that builds something, and never forces a rebuild.
build-deps:
	@miss=""; \
	for t in $(CC):$(CC_PKG) $(CLANG):clang $(BPFTOOL):bpftool $(PKG_CONFIG):$(PC_PKG); do \
		command -v $${t%%:*} >/dev/null 2>&1 || miss="$$miss $${t##*:}"; \
	done; \
	if command -v $(PKG_CONFIG) >/dev/null 2>&1; then \
		for l in $(DEPS_LIBS); do \
			$(PKG_CONFIG) --exists $${l%%:*} || miss="$$miss $${l##*:}$(DEB_SUFFIX)"; \
		done; \
		if $(PKG_CONFIG) --exists libbpf && \
		   ! $(PKG_CONFIG) --atleast-version=$(LIBBPF_MIN) libbpf; then \
			echo "make: libbpf $$($(PKG_CONFIG) --modversion libbpf) is too old:" \
				"osdhist needs >= $(LIBBPF_MIN); install libbpf-dev$(DEB_SUFFIX) and bpftool" \
				"from bookworm-backports (scripts/setup.sh does)" >&2; exit 1; \
		fi; \
	fi; \
	[ -z "$$miss" ] || { echo "make: missing build dependencies:$$miss;" \
		"install them (apt-get install$$miss) or run 'sudo scripts/setup.sh'" >&2; \
		exit 1; }

$(OUT):
	@mkdir -p $@

# The build needs kernel BTF for vmlinux.h, and so does loading: vmlinux.h
# marks every kernel struct preserve_access_index, so even the programs'
# reads of pt_regs are CO-RE relocations that libbpf resolves against
# /sys/kernel/btf/vmlinux (test_image hides it: the feature probe 'btf'
# refuses in one line).
$(OUT)/vmlinux.h: | $(OUT) build-deps
	@test -r /sys/kernel/btf/vmlinux || { echo "make: this kernel has no BTF" \
		"(/sys/kernel/btf/vmlinux): build on a kernel with CONFIG_DEBUG_INFO_BTF," \
		"then copy ./osdhist" >&2; exit 1; }
	$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > $@.tmp && mv $@.tmp $@

# Generated headers are order-only prerequisites: they must exist before
# the first compile, and after it the .d files say who includes them.
# One object per architecture, from the same source: build/arm64/ holds
# arm64's (pt_regs is user_pt_regs there: bpf/arch.bpf.h).  Both build on
# any host (clang -target bpf); test_verifier_arm64 loads arm64's here.
$(OUT)/osdhist.bpf.o: BPF_TARGET := x86
$(OUT)/arm64/osdhist.bpf.o: BPF_TARGET := arm64
$(OUT)/osdhist.bpf.o $(OUT)/arm64/osdhist.bpf.o: bpf/osdhist.bpf.c | $(OUT)/vmlinux.h
	@mkdir -p $(@D)
	$(CLANG) -g -O2 -target bpf -D__TARGET_ARCH_$(BPF_TARGET) -Wall -Werror $(DEPFLAGS) \
		$(BPF_CFLAGS) -Ibuild -Imaps -c $< -o $@

$(OUT)/osdhist.skel.h $(OUT)/arm64/osdhist.skel.h: %/osdhist.skel.h: %/osdhist.bpf.o
	$(BPFTOOL) gen skeleton $< name osdhist_bpf > $@.tmp && mv $@.tmp $@

$(OUT)/%.o: loader/%.c | $(OUT)/osdhist.skel.h build-deps
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(PC_CFLAGS) $(CFLAGS) $(DEPFLAGS) -c $< -o $@

# The per-CPU front rows' sums (loader/front.c front_fold) add every
# CPU's copy of a row, 128 x 470 words a row on a large host: -O3
# vectorizes them, about 4 times faster (bench/front_cost.c).
$(OUT)/front.o $(OUT)/th/front.o $(OUT)/static/front.o $(OUT)/arm64/static/front.o: CFLAGS += -O3

osdhist: $(OUT)/cli/main.o $(LIB_OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

# The test build: the whole loader compiled again with OSDHIST_TEST_HOOKS
# (loader/util/testhooks.h: faults driven by environment variables), into another
# binary; ./osdhist never honours them.
TH_OBJS := $(LOADER_SRCS:loader/%.c=$(OUT)/th/%.o)

$(OUT)/th/%.o: loader/%.c | $(OUT)/osdhist.skel.h build-deps
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(PC_CFLAGS) $(CFLAGS) $(DEPFLAGS) -DOSDHIST_TEST_HOOKS -c $< -o $@

$(OUT)/osdhist-testhooks: $(TH_OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

# one compile of every test file: its headers listed, not in .d files
$(OUT)/unit_tests: $(UNIT_SRCS) $(wildcard tests/unit/*.h) $(LIB_OBJS)
	@$(PKG_CONFIG) --exists cmocka || { echo "make: the unit tests need" \
		"libcmocka-dev (apt-get install libcmocka-dev)" >&2; exit 1; }
	$(CC) $(CPPFLAGS) $(PC_CFLAGS) $(CFLAGS) $(LDFLAGS) -Itests/unit $(UNIT_SRCS) $(LIB_OBJS) \
		$(LDLIBS) -lcmocka -o $@

# The verifier's stack depth of every program in every variant
# (tests/integration/test_stack.sh)
$(OUT)/stack_depth: tests/stack/stack_depth.c tests/stack/variants.h $(OUT)/osdhist.skel.h | build-deps
	$(CC) $(CPPFLAGS) $(PC_CFLAGS) $(CFLAGS) $< $(LDLIBS) -o $@

# The arm64 BPF object before this (x86-64) kernel's verifier, through
# arm64's skeleton, and the x86 object as the control; arm64's register
# file as bpf/ reads it against the arm64 kernel headers', cross-built,
# run under qemu (tests/integration/test_arm64_bpf.sh).
$(OUT)/arm64_verify: tests/verifier/verify_arch.c tests/stack/variants.h $(OUT)/arm64/osdhist.skel.h | build-deps
	$(CC) -I$(OUT)/arm64 $(CPPFLAGS) $(PC_CFLAGS) $(CFLAGS) $< $(LDLIBS) -o $@
$(OUT)/x86_verify: tests/verifier/verify_arch.c tests/stack/variants.h $(OUT)/osdhist.skel.h | build-deps
	$(CC) $(CPPFLAGS) $(PC_CFLAGS) $(CFLAGS) $< $(LDLIBS) -o $@
$(OUT)/arm64/arm64_regs: tests/verifier/arm64_regs.c bpf/arm64_regs.h | $(OUT)
	@mkdir -p $(@D)
	$(ARM64_CC) -static $(BASE_CFLAGS) -std=c11 -Wall -Wextra -Werror -Ibpf $< -o $@

# --- make static: build/osdhist-static, one binary for every glibc --------
# Linked -static-pie (PIE and ASLR kept, no interpreter, no NEEDED): the
# .deb and the RPM ship it as /usr/bin/osdhist, so one build installs on
# Debian 12, 13 and unstable alike (issues 22 and 27).  Debian ships .a files
# for libbpf, libelf, zlib, capstone, json-c and ncursesw, but its libmicrohttpd.a
# needs gnutls, whose static link needs p11-kit, which has no .a.  So the
# static build makes its own libmicrohttpd, without HTTPS (osdhist serves
# plain HTTP only): from Debian's own source package (apt-get source, which
# checks it against the signed Sources index; needs a deb-src line, which
# scripts/setup.sh adds), Debian's patches applied, into build/mhd/.
# MHD_VERSION=V picks a version; MHD_DSC=path/to/libmicrohttpd_V.dsc
# builds offline from source already downloaded.  The loader is compiled
# again into build/static/ against that library's header.
# ARCH=arm64: the same, cross-built, in build/arm64/ (ARCH_OUT above).
STATIC      := $(ARCH_OUT)/osdhist-static
MHD_DIR     := $(ARCH_OUT)/mhd
MHD_LIB     := $(MHD_DIR)/lib/libmicrohttpd.a
MHD_VERSION ?=
MHD_DSC     ?=
# no HTTPS, and nothing else osdhist does not call (no POST parsing, no
# auth, no upgrade): less code reachable from the network, as root
MHD_CONFIG  := --enable-static --disable-shared --with-pic --disable-https \
	--without-gnutls --disable-postprocessor --disable-bauth --disable-dauth \
	--disable-httpupgrade --disable-doc --disable-examples --disable-curl \
	--disable-nls --disable-dependency-tracking $(if $(TRIPLET),--host=$(TRIPLET))
STATIC_PCS  := libbpf libelf zlib capstone json-c ncursesw
ST_CFLAGS    = -I$(MHD_DIR)/include $(shell $(PKG_CONFIG) --cflags $(STATIC_PCS) 2>/dev/null)
ST_LDLIBS    = $(MHD_LIB) $(shell $(PKG_CONFIG) --static --libs $(STATIC_PCS) 2>/dev/null) -lm
ST_DIR      := $(ARCH_OUT)/static
ST_OBJS     := $(LOADER_SRCS:loader/%.c=$(ST_DIR)/%.o)

static: $(STATIC)
static rpm image $(STATIC) $(IMAGE): DEPS_LIBS = $(filter-out libmicrohttpd:%,$(BUILD_LIBS))

# what the static build needs beyond the build dependencies: the .a files
# (libc6-dev's libc.a among them) and the tools that fetch and unpack a
# Debian source package
static-deps: build-deps
	@miss=""; \
	for a in libc.a:libc6-dev libbpf.a:libbpf-dev libelf.a:libelf-dev libz.a:zlib1g-dev \
		libcapstone.a:libcapstone-dev libjson-c.a:libjson-c-dev \
		libncursesw.a:libncurses-dev libtinfo.a:libncurses-dev; do \
		$(CC) -print-file-name=$${a%%:*} | grep -q / || miss="$$miss $${a##*:}$(DEB_SUFFIX)"; \
	done; \
	command -v dpkg-source >/dev/null || miss="$$miss dpkg-dev"; \
	[ -z "$$miss" ] || { echo "make static: missing static libraries or tools:$$miss;" \
		"install them (apt-get install$$miss) or run 'sudo scripts/setup.sh$(if $(TRIPLET), static-arm64)'" >&2; exit 1; }

$(MHD_DIR)/src/configure: | $(OUT) static-deps
	rm -rf $(MHD_DIR) && mkdir -p $(MHD_DIR)/dl
	@if [ -n "$(MHD_DSC)" ]; then \
		cp "$(MHD_DSC)" $(MHD_DIR)/dl/ && dpkg-source -x "$(MHD_DSC)" $(MHD_DIR)/src; \
	else (cd $(MHD_DIR)/dl && apt-get source --download-only -q \
		libmicrohttpd$(if $(MHD_VERSION),=$(MHD_VERSION))) || { echo "make static:" \
		"apt-get source libmicrohttpd failed: it needs a deb-src line (scripts/setup.sh" \
		"adds one for bookworm), or give MHD_DSC=path/to/libmicrohttpd_VERSION.dsc" >&2; \
		exit 1; }; \
		dpkg-source -x $(MHD_DIR)/dl/libmicrohttpd_*.dsc $(MHD_DIR)/src; fi
	sed -n 's/^Version: //p' $(MHD_DIR)/dl/libmicrohttpd_*.dsc > $(MHD_DIR)/VERSION

# MHD_CACHE=DIR (the tests: /var/cache/osdhist/mhd) keeps the built library
# and header in DIR/KEY, KEY a hash of the .dsc, the configure options, the
# flags (less the build path's prefix maps) and the compiler: its configure
# is most of the time of make static.  Empty (the default): nothing is kept
# outside build/.
MHD_CACHE   ?=
MHD_KEYFLAGS = $(filter-out -ffile-prefix-map=% -fdebug-prefix-map=%,$(BASE_CFLAGS))
$(MHD_LIB): $(MHD_DIR)/src/configure
	@key=$$({ cat $(MHD_DIR)/dl/libmicrohttpd_*.dsc; echo '$(MHD_CONFIG) $(MHD_KEYFLAGS)'; \
		$(CC) --version; } | sha256sum | cut -c1-16); \
	if [ -n "$(MHD_CACHE)" ] && [ -f "$(MHD_CACHE)/$$key/lib/libmicrohttpd.a" ]; then \
		echo "make static: libmicrohttpd $$(cat $(MHD_DIR)/VERSION) from $(MHD_CACHE)/$$key"; \
		cp -r "$(MHD_CACHE)/$$key/lib" "$(MHD_CACHE)/$$key/include" $(MHD_DIR)/; \
	else \
		echo "make static: building libmicrohttpd $$(cat $(MHD_DIR)/VERSION) (log: $(MHD_DIR)/*.log)"; \
		(cd $(MHD_DIR)/src && ./configure -q --prefix=$(abspath $(MHD_DIR)) $(MHD_CONFIG) \
			CC="$(CC)" CFLAGS="$(BASE_CFLAGS)") > $(MHD_DIR)/configure.log && \
		$(MAKE) -s -C $(MHD_DIR)/src/src/microhttpd install > $(MHD_DIR)/make.log && \
		$(MAKE) -s -C $(MHD_DIR)/src/src/include install >> $(MHD_DIR)/make.log || exit 1; \
		if [ -n "$(MHD_CACHE)" ] && mkdir -p "$(MHD_CACHE)" && \
		   t=$$(mktemp -d "$(MHD_CACHE)/.new.XXXXXX"); then \
			cp -r $(MHD_DIR)/lib $(MHD_DIR)/include "$$t/" && \
			mv -T "$$t" "$(MHD_CACHE)/$$key" 2>/dev/null || rm -rf "$$t"; \
		fi; \
	fi

# -I$(ARCH_OUT) first: that architecture's skeleton (the same as -Ibuild on x86)
$(ST_DIR)/%.o: loader/%.c $(MHD_LIB) | $(ARCH_OUT)/osdhist.skel.h
	@mkdir -p $(@D)
	$(CC) -I$(ARCH_OUT) $(CPPFLAGS) $(ST_CFLAGS) $(CFLAGS) $(DEPFLAGS) -fPIE -c $< -o $@

# glibc warns that getaddrinfo in a static binary needs its NSS modules at
# run time: files and dns are built into the static libc; only an
# nsswitch.conf "hosts:" module beyond those (myhostname, resolve...) would
# not resolve a --prometheus ADDR name.  A numeric ADDR never needs one.
$(STATIC): $(ST_OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -static-pie $^ $(ST_LDLIBS) -o $@

# The RPM (dist/osdhist.spec): the static binary and the files the .deb
# holds, at the same paths, built with Debian's rpmbuild in this tree.
RPM_VERSION = $(shell dpkg-parsechangelog -S Version)
# ARCH=arm64: the aarch64 package (rpmbuild --target; the spec's %build
# runs make static ARCH=arm64), into build/arm64/.
RPM_ARCH = $(if $(TRIPLET),aarch64,x86_64)
rpm: $(STATIC)
	@command -v rpmbuild >/dev/null || { echo "make rpm: rpmbuild missing:" \
		"apt-get install rpm (or run 'sudo scripts/setup.sh')" >&2; exit 1; }
	rpmbuild -bb --build-in-place --define "_topdir $(CURDIR)/$(OUT)/rpm" \
		$(if $(TRIPLET),--target $(RPM_ARCH) --define "__strip $(TRIPLET)-strip" \
			--define "__objdump $(TRIPLET)-objdump") \
		--define "osdhist_version $(RPM_VERSION)" dist/osdhist.spec
	cp $(OUT)/rpm/RPMS/$(RPM_ARCH)/osdhist-$(RPM_VERSION)-*.$(RPM_ARCH).rpm $(ARCH_OUT)/

# The OCI image (docs/deploy.md): the static binary alone, as /osdhist,
# in an OCI archive that skopeo, podman and containerd load; built with
# umoci, no container run, reproducible (scripts/image.sh says how).
# UMOCI=path picks the umoci binary.
IMAGE := $(OUT)/osdhist-image.tar
image: $(IMAGE)
$(IMAGE): $(STATIC) scripts/image.sh loader/util/version.h dist/osdhist.spec \
		dist/osdhist.service.in
	@UMOCI=$(UMOCI) scripts/image.sh $(STATIC) $@
UMOCI ?= umoci

# The targets below install what they need first (scripts/setup.sh), then
# build in a second make, so the build sees what setup.sh just installed.
unit-test: deps
	@$(MAKE) --no-print-directory $(OUT)/unit_tests
	@$(OUT)/unit_tests

# The fuzz target: a tenant's file named ceph-osd reaches libelf and the
# offset derivation as root, so that path runs under libFuzzer with ASan and
# UBSan.  Every file of loader/ceph/ (the trust boundary) is linked into
# one of the four harnesses: binary, derive and symtrace here, the others
# below.  fuzz_binary_cov is the same harness with clang's source coverage,
# to show which lines the seeds and the corpus reach.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 180
FUZZ_LINKED   = loader/ceph/binary.c $(sort $(wildcard loader/ceph/derive*.c)) \
		$(wildcard loader/ceph/symtrace*.c)
FUZZ_SRCS     = tests/fuzz/fuzz_binary.c $(FUZZ_LINKED)
FUZZ_HDRS     = $(wildcard loader/ceph/*.h loader/util/*.h) maps/osdhist.h
FUZZ_CFLAGS   = -g -O1 -fno-omit-frame-pointer -std=c11 -Wall -Wextra -Werror \
		-D_GNU_SOURCE $(CPPFLAGS) $(shell pkg-config --cflags capstone)
FUZZ_LIBS     = -lelf -lz $(shell pkg-config --libs capstone || echo -lcapstone)

$(OUT)/fuzz_binary: $(FUZZ_SRCS) $(FUZZ_HDRS) | $(OUT)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all $(FUZZ_SRCS) $(FUZZ_LIBS) -o $@

$(OUT)/fuzz_binary_cov: $(FUZZ_SRCS) $(FUZZ_HDRS) | $(OUT)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -fprofile-instr-generate \
		-fcoverage-mapping $(FUZZ_SRCS) $(FUZZ_LIBS) -o $@

# What the harness links besides itself, for test_fuzz.sh's messages and
# coverage report: one list, here.
fuzz-linked:
	@echo $(FUZZ_LINKED)

# The parsers of what a process offers as text (issue 23): its ceph.conf,
# its command line, its admin socket's answer.  One harness each, linked
# with only the files it needs, in the same ASan+UBSan build as fuzz_binary
# (tests/integration/test_fuzz_text.sh runs them).
FUZZ_TEXT        = fuzz_conf fuzz_cmdline fuzz_perf
FUZZ_conf_SRCS    = loader/ceph/asok_find.c loader/ceph/procs.c loader/ceph/proot.c
FUZZ_cmdline_SRCS = loader/ceph/procs.c loader/ceph/asok_find.c loader/ceph/proot.c
FUZZ_perf_SRCS    = loader/ceph/asok.c
FUZZ_perf_LIBS    = $(shell pkg-config --libs json-c || echo -ljson-c)
FUZZ_TEXT_CFLAGS  = $(FUZZ_CFLAGS) -Iloader $(shell pkg-config --cflags json-c)

$(FUZZ_TEXT:%=$(OUT)/%): $(OUT)/fuzz_%: tests/fuzz/fuzz_%.c $(LOADER_HDRS) | $(OUT)
	$(FUZZ_CC) $(FUZZ_TEXT_CFLAGS) -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all $< $(FUZZ_$*_SRCS) $(FUZZ_$*_LIBS) -o $@
$(OUT)/fuzz_conf: $(FUZZ_conf_SRCS)
$(OUT)/fuzz_cmdline: $(FUZZ_cmdline_SRCS)
$(OUT)/fuzz_perf: $(FUZZ_perf_SRCS)

# The DWARF oracle of test_dwarf.sh: the offsets osdhist derives from code,
# read from Debian's ceph-osd-dbg with libdw instead.  Test-only.
$(OUT)/dwarf_offsets: tests/dwarf/dwarf_offsets.c | $(OUT)
	$(CC) $(CFLAGS) $< -ldw -lelf -o $@

# Runs the fuzzers FUZZ_SECONDS each on corpora kept in build/fuzz-corpus
# (the text targets' in build/fuzz-corpus-text/NAME); the test suite runs
# the same scripts for 120 s and 30 s on throwaway corpora.
fuzz: deps $(OUT)/fuzz_binary $(OUT)/fuzz_binary_cov $(FUZZ_TEXT:%=$(OUT)/%)
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_CORPUS=$(CURDIR)/$(OUT)/fuzz-corpus \
		tests/integration/test_fuzz.sh
	FUZZ_TEXT_SECONDS=$(FUZZ_SECONDS) FUZZ_CORPUS=$(CURDIR)/$(OUT)/fuzz-corpus-text \
		tests/integration/test_fuzz_text.sh

# The one test command (README, .ci/run): unit tests, then integration tests
# on throwaway clusters, then one summary line.  TESTS="core cli" picks some.
test: deps
	@$(MAKE) --no-print-directory osdhist $(OUT)/unit_tests $(OUT)/osdhist-testhooks \
		$(OUT)/stack_depth
	@tests/run-all.sh

demo: deps
	@$(MAKE) --no-print-directory osdhist
	@scripts/demo.sh

bench: deps
	@$(MAKE) --no-print-directory osdhist
	@bench/run.sh

bench-duty: deps
	@$(MAKE) --no-print-directory osdhist
	@bench/duty.sh

bench-waits: deps
	@$(MAKE) --no-print-directory osdhist
	@bench/waits.sh

# the loader's CPU with 24 OSDs at 1 s, and the per-CPU rows' read modelled
# for 128 CPUs
bench-loader: deps
	@$(MAKE) --no-print-directory osdhist
	@bench/loader_cost.sh

# what the histogram and op-code counter stages cost in BPF alone:
# osdhist's own code (bench/stages.bpf.c includes bpf/osdhist.bpf.c) in a
# bpf_loop run by BPF_PROG_TEST_RUN, no uprobe, no cluster
$(OUT)/stages.bpf.o: bench/stages.bpf.c | $(OUT)/vmlinux.h
	$(CLANG) -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall -Werror $(DEPFLAGS) \
		$(BPF_CFLAGS) -Ibuild -Imaps -Ibpf -c $< -o $@

$(OUT)/stages.skel.h: $(OUT)/stages.bpf.o
	$(BPFTOOL) gen skeleton $< name stages_bpf > $@.tmp && mv $@.tmp $@

$(OUT)/stages: bench/stages.c $(OUT)/stages.skel.h
	$(CC) $(CPPFLAGS) $(PC_CFLAGS) $(CFLAGS) -I$(OUT) $< $(LDFLAGS) -lbpf -o $@

bench-stages: deps
	@$(MAKE) --no-print-directory $(OUT)/stages
	@mkdir -p bench/results
	@$(OUT)/stages 15 bench/results/stages-$$(date -u +%Y%m%d-%H%M%S).json

# The loader's CPU with --top against the text output, 12 OSDs, 1 s
bench-top: deps
	@$(MAKE) --no-print-directory osdhist
	@bench/top_cost.sh

# BPF ns per op with the OSD pinned to one CPU and spread, for this build
# and OSDHIST_PREV (one with shared counters)
bench-contention: deps
	@$(MAKE) --no-print-directory osdhist
	@bench/contention.sh

# two builds' BPF ns per op on the same ops at once (OSDHIST_PREV= the
# other build; OSDHIST_ARGS, OSDHIST_PREV_ARGS their options)
bench-pair: deps
	@$(MAKE) --no-print-directory osdhist
	@bench/pair.sh

# where the BPF time per op goes: builds with bench/ablation.patch, stage by stage
bench-ablate: deps
	@bench/ablate.sh

# what bench/mapmodel.py's "allocated" figure adds to the kernel's, checked here
bench-alloc: deps
	@bench/alloc_check.sh

# The unit's ExecStart names the installed binary: generated from
# dist/osdhist.service.in with BINDIR substituted.  The Grafana dashboard
# and the Prometheus rules go to DATADIR, to be copied or linked from there.
# INSTALL_BIN=build/osdhist-static installs the static binary instead
# (debian/rules and dist/osdhist.spec do).
INSTALL_BIN ?= osdhist
install: $(INSTALL_BIN)
	install -D -m 0755 $(INSTALL_BIN) $(DESTDIR)$(BINDIR)/osdhist
	install -d $(DESTDIR)$(UNITDIR)
	sed 's|@BINDIR@|$(BINDIR)|g' dist/osdhist.service.in > $(DESTDIR)$(UNITDIR)/osdhist.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/osdhist.service
	install -D -m 0644 dist/osdhist.8 $(DESTDIR)$(MANDIR)/man8/osdhist.8
	install -D -m 0644 dist/grafana/osdhist.json $(DESTDIR)$(DATADIR)/grafana/osdhist.json
	install -D -m 0644 dist/prometheus/osdhist.rules.yml \
		$(DESTDIR)$(DATADIR)/prometheus/osdhist.rules.yml

clean:
	rm -rf $(OUT) osdhist

# every folder of loader/ (build/FOLDER, build/th/FOLDER, build/static/FOLDER):
# a header of report/ changed must rebuild output/'s objects too
-include $(wildcard $(OUT)/*.d $(OUT)/*/*.d $(OUT)/th/*/*.d $(OUT)/static/*/*.d \
	$(OUT)/arm64/static/*.d $(OUT)/arm64/static/*/*.d)
