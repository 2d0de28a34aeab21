# SPDX-License-Identifier: GPL-2.0
# kembed: build, boot and test a kernel in QEMU (riscv64, arm64, x86_64).
#   make demo    build everything, boot, run the kheaders demo in the guest
#   make check   all tests (host and guest); last line "N passed, N failed"
#   make bench   kembed's headers archive against upstream kheaders
#   make matrix  every make path on kembed and on pristine linux-source
# Kernel trees, ccache and guest images are cached outside the checkout in
# $KEMBED_CACHE (default: ${XDG_CACHE_HOME:-~/.cache}/kembed).

# make demo ARCH=arm64: the guest's architecture, riscv64 (the default),
# arm64 or x86_64, for the targets that build or boot one guest kernel
# (KEMBED_ARCH=... for the harness scripts themselves)
ifeq ($(origin ARCH),command line)
kernel root objtree demo bench: export KEMBED_ARCH := $(ARCH)
endif

# make check TESTS="smoke harness": run only these tests
TESTS ?=
# make check V=1: show each test's output as it runs
V ?=

.PHONY: all deps kernel root objtree demo check clean distclean-cache help \
	userspace series series-check bench matrix

all: kernel root

help:
	@echo 'make deps             install the Debian packages the harness needs'
	@echo 'make kernel           build the kernel (qemu/configs/base.config)'
	@echo 'make root             build the Debian trixie guest root'
	@echo '  ARCH=arm64|x86_64     kernel, root, objtree, demo, bench: that guest'
	@echo '                        (default riscv64)'
	@echo 'make -s objtree       print the kernel object tree path'
	@echo 'make demo             build, boot and run the kheaders demo'
	@echo 'make userspace        build the kembed tool in build/userspace'
	@echo 'make check [TESTS=..] run the tests (V=1: show their output)'
	@echo 'make series           the patch series for upstream, in build/series'
	@echo 'make series-check     check it: git am, tree, checkpatch, a build per patch'
	@echo 'make bench            kembed against upstream kheaders (BENCH_RUNS=3)'
	@echo 'make matrix [PATHS=..] every make path, kembed and pristine'
	@echo 'make clean            remove local outputs (build/)'
	@echo 'make distclean-cache  remove the cache (kernel trees, ccache, images)'

deps:
	qemu/deps

kernel:
	qemu/kernel

root:
	qemu/root

objtree:
	@qemu/kernel --print-objtree

demo:
	qemu/run --copy qemu/demo/hello qemu/demo/demo.sh

# The guest builds its own from userspace/ (tests/guest/userspace-*.sh).
userspace:
	$(MAKE) -C userspace O=$(CURDIR)/build/userspace

series:
	patches/series

# tests/host/series.sh, with the build after every patch that make check
# leaves to make matrix.
series-check:
	KEMBED_SERIES_BISECT=1 tests/run $(if $(V),-v) series

check:
	tests/run $(if $(V),-v) $(TESTS)

# METRIC lines and a table on stdout; build/bench/results.{csv,json,png}.
# BENCH_RUNS=N timed runs per figure (medians), default 3.
bench:
	bench/run

# The tests too heavy for make check, which skips them or runs their
# cheap part: tests/host/kbuild-paths.sh with every path; the patch
# series built after every patch (tests/host/series.sh); a cold kernel
# build in a minimal Debian 12 chroot holding only what qemu/deps installs
# (tests/host/fresh-machine.sh); the kheaders archive of an LLVM=1 kernel,
# and modules built from it in the guest with clang; the archive of a
# kernel built by a compiler that cannot link target programs; a copy of
# the repository with one more artifact, through the generic guest tests;
# the guest suites on arm64 and x86_64 (tests/host/arch-suite.sh), and
# the module suite on a distribution-like x86_64 and an Android-like
# arm64 (LLVM=1) kernel.
# make matrix PATHS="llvm o-j1": only these paths of kbuild-paths.
PATHS ?=
matrix:
	KEMBED_MATRIX=1 $(if $(PATHS),KEMBED_PATHS="$(PATHS)") \
		tests/run $(if $(V),-v) kbuild-paths fresh-machine \
		kheaders-llvm guest/kheaders-modules-llvm \
		kheaders-headers-only series new-artifact arch-suite \
		guest/kheaders-modules-distro-x86_64 \
		guest/kheaders-modules-android-arm64

clean:
	rm -rf build

distclean-cache:
	rm -rf "$${KEMBED_CACHE:-$${XDG_CACHE_HOME:-$$HOME/.cache}/kembed}"
