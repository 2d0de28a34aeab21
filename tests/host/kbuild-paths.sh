#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kembed against pristine linux-source-6.1 on the ordinary make paths.
# Each path runs the same make commands, with the same .config, on both
# trees, each in a fresh object tree, and kembed must succeed wherever
# pristine does, with correct artifacts (bytes compared to what the build
# says they should be). A path on which pristine fails is skipped for
# kembed; a kembed-only path (artifacts.d/, reserved names) says
# pristine=n/a.
#
# The cheap tier (make check) runs the paths that cost little with a warm
# ccache; KEMBED_MATRIX=1 (make matrix) runs every path. KEMBED_PATHS="a
# b" runs only those paths, whatever the tier. The configurations are
# qemu/configs/base.config (+ fragments) on tinyconfig, made once per
# tree by "qemu/kernel --configure-only" and copied into each fresh tree.
# Object trees: $KEMBED_CACHE/kbuild-paths/<path>-<tree> (another
# directory in $KEMBED_CACHE: KEMBED_KPATHS_DIR), logs in logs/.
# Every object tree is two levels below the source tree's parent (the
# private copy of kembed's source is copy/src, its trees copy/o/*) and
# ccache runs with CCACHE_BASEDIR=$KEMBED_CACHE: the compiler sees the
# same relative paths in every tree, and a fresh tree is a warm build.
set -u

repo=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$repo/tests/lib/tap.sh"
prog=tests/host/kbuild-paths.sh
# shellcheck source=qemu/lib.sh
. "$repo/qemu/lib.sh"
cd "$repo" || exit 1
fix=$repo/tests/fixtures/kbuild-paths

# tier name trees description
paths()
{
	cat <<'EOT'
cheap fresh-clean both clean, mrproper, distclean on a fresh unconfigured O= tree
heavy image both fresh O= tree: make Image alone
cheap localmodconfig both make localmodconfig with LSMOD=<fake lsmod>
cheap intree-config both in-tree (no O=): make olddefconfig, then mrproper
cheap artifacts-d kembed artifacts.d/ add, edit, remove after configuring: plain make (make check: its sync step)
cheap reserved-version kembed name = version fails configuring with FILE:LINE
cheap reserved-self kembed name = self fails configuring with FILE:LINE
cheap reserved-sys kembed name = sys fails configuring with FILE:LINE
cheap reserved-1 kembed name = 1 fails configuring with FILE:LINE
cheap reserved-embedded_blobs kembed name = embedded_blobs fails configuring with FILE:LINE
cheap reserved-meminfo kembed name = meminfo (a /proc entry) fails configuring with FILE:LINE
heavy image-modules both then make modules in the image tree
heavy vmlinux both fresh O= tree: make vmlinux alone
heavy vmlinux-modules both then make modules in the vmlinux tree
heavy o-jN both O= tree: make -jN
heavy clean-built both clean, mrproper, distclean after the o-jN build
heavy o-j1 both O= tree: make -j1
heavy intree-jN both in-tree (no O=): make -jN, then mrproper
heavy intree-j1 both in-tree (no O=): make -j1, then mrproper
heavy kconfig-config both KCONFIG_CONFIG=kpaths.config: make olddefconfig vmlinux
heavy modules-n both CONFIG_MODULES=n with IKHEADERS=y: make
heavy ikheaders-m-modversions both IKHEADERS=m (every artifact =m) with MODVERSIONS: make
heavy all-n both every artifact =n: make
heavy cc-nostdinc both CC="riscv64-linux-gnu-gcc -nostdinc" (CC_CAN_LINK off): make
heavy llvm both LLVM=1: make
heavy checkkconfigsymbols both scripts/checkkconfigsymbols.py in a git tree
EOT
}

selected()
{
	if [ -n "${KEMBED_PATHS:-}" ]; then
		case " $KEMBED_PATHS " in
		*" $2 "*) return 0 ;;
		esac
		return 1
	fi
	[ "$1" = cheap ] || [ "${KEMBED_MATRIX:-0}" = 1 ]
}

work=${KEMBED_KPATHS_DIR:-$CACHE/kbuild-paths}
lists=$work/lists
mkdir -p "$work/logs" "$lists" "$work/config"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kembed-kpaths.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

: >"$tmp/list"
paths | while read -r p_tier p_name p_rest; do
	selected "$p_tier" "$p_name" && echo "$p_tier $p_name $p_rest"
done >"$tmp/list"

echo "TAP version 13"
echo "1..$(wc -l <"$tmp/list")"
[ -s "$tmp/list" ] || exit 0

qemu/deps >&2 || { echo "Bail out! qemu/deps failed"; exit 1; }
pristine_src=$(qemu/prepare-tree --print-pristine) ||
	{ echo "Bail out! no pristine tree"; exit 1; }
kembed_src=$CACHE/src
# The whole run reads $CACHE/src, which every kembed build syncs from its
# own checkout: hold the kernel build lock (qemu/kernel, called below,
# sees it and does not wait for it), and sync the tree from this one.
cache_lock kernel
qemu/prepare-tree >&2 || { echo "Bail out! qemu/prepare-tree failed"; exit 1; }

# kmk SRC OBJ [ARG]...: make as every kembed build does (qemu/lib.sh
# kbuild_make: ccache'd cross gcc, fixed timestamp, user and host); an
# empty OBJ builds in SRC, without O=. $kcc (the CC, empty: none on the
# command line) and $kjobs override the defaults, $kextra (one word,
# such as LLVM=1) is added; the command goes to the log first.
kcc="ccache ${KEMBED_CROSS}gcc"
kjobs=$KEMBED_JOBS
kextra=
kmk()
{
	(
		s=$1
		o=$2
		shift 2
		[ -z "$kextra" ] || set -- "$kextra" "$@"
		echo "+ make -C $s${o:+ O=$o}${kcc:+ CC=\"$kcc\"} -j$kjobs $*"
		set -- ARCH="$kbuild_arch" CROSS_COMPILE="$KEMBED_CROSS" \
			-j"$kjobs" "$@"
		[ -z "$kcc" ] || set -- CC="$kcc" "$@"
		[ -z "$o" ] || set -- O="$o" "$@"
		exec env -u ARCH -u CROSS_COMPILE -u KCONFIG_CONFIG \
			CCACHE_DIR="$CACHE/ccache" CCACHE_BASEDIR="$CACHE" \
			KBUILD_BUILD_TIMESTAMP='2025-01-01 00:00:00 UTC' \
			KBUILD_BUILD_USER=kembed KBUILD_BUILD_HOST=kembed \
			make -C "$s" "$@"
	)
}

# why TEXT: add TEXT to the current path's artifact notes
why()
{
	art=${art:+$art; }$*
	echo "ARTIFACTS: $*"
}

# config_of TREE SET: the reference .config of TREE for fragment set SET
# (base, modsym, modules-n, ikh-m-modv, all-n), made once.
config_of()
{
	dir=$work/config/$1-$2
	case "$2" in
	base) frags= ;;
	modsym) frags="$fix/module-sym.config" ;;
	modules-n) frags="$fix/modules-n.config" ;;
	ikh-m-modv) frags="qemu/configs/artifacts-m.config qemu/configs/modversions.config" ;;
	all-n) frags="qemu/configs/no-artifacts.config" ;;
	*) die "unknown configuration: $2" ;;
	esac
	ctree=$1
	if [ ! -f "$dir/.config" ] ||
		[ "$(cat "$dir/.kpaths-run" 2>/dev/null)" != "$run_id" ]; then
		set --
		for f in $frags; do
			set -- "$@" --kconfig "$f"
		done
		[ "$ctree" = kembed ] || set -- "$@" --pristine
		echo "+ qemu/kernel --objtree $dir --configure-only $*"
		rm -rf "$dir"
		qemu/kernel --objtree "$dir" --configure-only "$@" || return 1
		echo "$run_id" >"$dir/.kpaths-run"
	fi
	echo "$dir/.config" >"$tmp/config"
}

# fresh TREE SET [SRC]: a new empty object tree $obj (for path $name),
# with the reference .config of SET and "make olddefconfig" run
fresh()
{
	config_of "$1" "$2" || return 1
	obj=$objdir/$name-$1
	rm -rf "$obj"
	mkdir -p "$obj"
	cp "$(cat "$tmp/config")" "$obj/.config"
	kmk "${3:-$tsrc}" "$obj" olddefconfig
}

# archive OBJ: the headers archive the build embeds
archive()
{
	if [ "$tree" = kembed ]; then
		echo "$1/kernel/kheaders.payload"
	else
		echo "$1/kernel/kheaders_data.tar.xz"
	fi
}

# embedded FILE IMAGE: FILE's bytes are in IMAGE (vmlinux, Image)
embedded()
{
	python3 - "$1" "$2" <<'EOT'
import sys
with open(sys.argv[1], "rb") as f:
    blob = f.read()
with open(sys.argv[2], "rb") as f:
    image = f.read()
sys.exit(0 if blob and image.find(blob) >= 0 else 1)
EOT
}

# check_embedded OBJ IMAGE: the archive (when =y) is what IMAGE carries
check_embedded()
{
	grep -qx 'CONFIG_IKHEADERS=y' "$1/.config" || return 0
	a=$(archive "$1")
	[ -f "$a" ] || { why "no archive ${a#"$1"/}"; return 1; }
	embedded "$a" "$1/$2" && return 0
	why "${a#"$1"/} is not the archive $2 carries"
	return 1
}

# check_symvers OBJ: kembed's archive holds the build's final
# Module.symvers, or vmlinux.symvers and a note saying why
check_symvers()
{
	rm -f "$tmp/symvers"
	[ "$tree" = kembed ] || return 0
	grep -q '^CONFIG_IKHEADERS=[ym]' "$1/.config" || return 0
	a=$(archive "$1")
	[ -f "$a" ] || { why "no archive"; return 1; }
	if ! xz -dc "$a" | tar -xOf - ./Module.symvers >"$tmp/symvers"; then
		why "no ./Module.symvers in the archive"
		return 1
	fi
	if [ -f "$1/Module.symvers" ] && cmp -s "$tmp/symvers" "$1/Module.symvers"; then
		echo "ARTIFACTS: archive Module.symvers = Module.symvers"
		return 0
	fi
	note=$(xz -dc "$a" | tar -tf - | grep -iE 'note|readme|symvers' |
		grep -vx '\./Module.symvers' | tr '\n' ' ')
	if [ -f "$1/vmlinux.symvers" ] && cmp -s "$tmp/symvers" "$1/vmlinux.symvers" &&
		[ -n "$note" ]; then
		why "archive Module.symvers = vmlinux.symvers, note: $note"
		return 0
	fi
	arch_n=$(wc -l <"$tmp/symvers")
	final_n=$(wc -l <"$1/Module.symvers" 2>/dev/null) || final_n=absent
	vml=differs
	cmp -s "$tmp/symvers" "$1/vmlinux.symvers" 2>/dev/null && vml=equal
	why "stale archive Module.symvers ($arch_n lines; final Module.symvers: $final_n; vmlinux.symvers: $vml; note: ${note:-none})"
	return 1
}

# elf_programs OBJ: every ELF file in the archive, with file(1)'s words
elf_programs()
{
	rm -rf "$tmp/x"
	mkdir "$tmp/x"
	xz -dc "$(archive "$1")" | tar -xf - -C "$tmp/x" || return 1
	find "$tmp/x" -type f -exec file {} + >"$tmp/file" || return 1
	grep ': *ELF' "$tmp/file" | sed "s|^$tmp/x/||" >"$tmp/elf" || :
}

# listing DIR: every file under DIR, sorted. Not the directories: clean
# and mrproper leave those a build made, as many in kembed as in pristine
# plus kembed's own (kernel/kheaders/).
listing()
{
	(cd "$1" && find . ! -type d | LC_ALL=C sort)
}

# --- the paths: p_NAME TREE; return 0 ok, 1 a make failed, 2 artifacts

p_fresh_clean()
{
	obj=$objdir/$name-$1
	rm -rf "$obj"
	mkdir -p "$obj"
	kmk "$tsrc" "$obj" clean || return 1
	kmk "$tsrc" "$obj" mrproper || return 1
	listing "$obj" >"$lists/$name-$1"
	kmk "$tsrc" "$obj" distclean || return 1
	compare_listing "$name"
}

# compare_listing NAME: kembed's listing after mrproper is pristine's
compare_listing()
{
	[ "$tree" = kembed ] || return 0
	if [ ! -f "$lists/$1-pristine" ]; then
		why "no pristine listing to compare"
		return 2
	fi
	if ! diff "$lists/$1-pristine" "$lists/$1-kembed" >"$tmp/diff"; then
		why "after mrproper, kembed's tree differs from pristine's: $(grep -c '^[<>]' "$tmp/diff") files ($(grep '^[<>]' "$tmp/diff" | head -n 5 | tr '\n' ' '))"
		cat "$tmp/diff"
		return 2
	fi
	echo "ARTIFACTS: the listing after mrproper is pristine's"
}

# built_alone TREE GOAL FILE: make GOAL alone in a fresh tree; FILE carries
# the archive.
built_alone()
{
	fresh "$1" modsym || return 1
	kmk "$tsrc" "$obj" "$2" || return 1
	r=0
	check_embedded "$obj" "$3" || r=2
	check_symvers "$obj" || r=2
	return "$r"
}

# then_modules TREE PATH GOAL FILE: make modules in the tree of PATH
# (built_alone GOAL FILE, first if need be).
then_modules()
{
	obj=$objdir/$2-$1
	if [ ! -f "$obj/$4" ]; then
		name=$2 built_alone "$1" "$3" "$4" || return 1
		obj=$objdir/$2-$1
	fi
	art=
	kmk "$tsrc" "$obj" modules || return 1
	r=0
	check_embedded "$obj" "$4" || r=2
	check_symvers "$obj" || r=2
	return "$r"
}

p_image() { built_alone "$1" Image arch/riscv/boot/Image; }
p_image_modules() { then_modules "$1" image Image arch/riscv/boot/Image; }
p_vmlinux() { built_alone "$1" vmlinux vmlinux; }
p_vmlinux_modules() { then_modules "$1" vmlinux vmlinux vmlinux; }

# full_checks OBJ: after a full make
full_checks()
{
	r=0
	check_embedded "$1" vmlinux || r=2
	check_symvers "$1" || r=2
	return "$r"
}

p_o_jN()
{
	fresh "$1" modsym || return 1
	kmk "$tsrc" "$obj" || return 1
	full_checks "$obj"
}

p_o_j1()
{
	fresh "$1" modsym || return 1
	kjobs=1 kmk "$tsrc" "$obj" || return 1
	full_checks "$obj"
}

p_clean_built()
{
	obj=$objdir/o-jN-$1
	if [ ! -f "$obj/vmlinux" ]; then
		name=o-jN p_o_jN "$1" || return 1
		obj=$objdir/o-jN-$1
	fi
	art=
	kmk "$tsrc" "$obj" clean || return 1
	kmk "$tsrc" "$obj" mrproper || return 1
	listing "$obj" >"$lists/$name-$1"
	kmk "$tsrc" "$obj" distclean || return 1
	compare_listing "$name"
}

# An in-tree build in a private copy of the source tree (hard links:
# a build only adds and removes files), then mrproper: what it leaves
# behind, or removes, must be what it does in pristine.
intree()
{
	copy=$objdir/$name-$1
	rm -rf "$copy"
	cp -al "$tsrc" "$copy" || return 1
	listing "$copy" >"$lists/$name-$1.before"
	config_of "$1" modsym || return 1
	cp "$(cat "$tmp/config")" "$copy/.config"
	kmk "$copy" "" olddefconfig || return 1
	r=0
	if [ -z "${intree_config_only:-}" ]; then
		kmk "$copy" "" || return 1
		full_checks "$copy" || r=2
	fi
	kmk "$copy" "" mrproper || return 1
	listing "$copy" >"$lists/$name-$1.after"
	diff "$lists/$name-$1.before" "$lists/$name-$1.after" | grep '^[<>]' >"$lists/$name-$1"
	if [ "$tree" = kembed ]; then
		if ! diff "$lists/$name-pristine" "$lists/$name-kembed" >"$tmp/diff"; then
			why "mrproper in-tree: kembed's leftovers differ from pristine's: $(grep '^[<>]' "$tmp/diff" | head -n 5 | tr '\n' ' ')"
			cat "$tmp/diff"
			r=2
		fi
	fi
	rm -rf "$copy"
	return "$r"
}

p_intree_config()
{
	intree_config_only=1 intree "$1"
}

p_intree_jN()
{
	intree "$1"
}

p_intree_j1()
{
	kjobs=1 intree "$1"
}

p_kconfig_config()
{
	config_of "$1" base || return 1
	obj=$objdir/$name-$1
	rm -rf "$obj"
	mkdir -p "$obj"
	cp "$(cat "$tmp/config")" "$obj/kpaths.config"
	kmk "$tsrc" "$obj" KCONFIG_CONFIG=kpaths.config olddefconfig || return 1
	kmk "$tsrc" "$obj" KCONFIG_CONFIG=kpaths.config vmlinux || return 1
	if [ "$tree" = kembed ]; then
		gz=$obj/kernel/configs.payload
	else
		gz=$obj/kernel/config_data.gz
	fi
	r=0
	if ! gzip -dc "$gz" | cmp -s - "$obj/kpaths.config"; then
		why "${gz#"$obj"/} does not gunzip to KCONFIG_CONFIG"
		r=2
	fi
	embedded "$gz" "$obj/vmlinux" || { why "vmlinux does not carry ${gz#"$obj"/}"; r=2; }
	[ ! -e "$obj/.config" ] || why "a .config was created too (note only)"
	return "$r"
}

p_modules_n()
{
	fresh "$1" modules-n || return 1
	kmk "$tsrc" "$obj" || return 1
	r=0
	check_embedded "$obj" vmlinux || r=2
	if [ "$tree" = kembed ]; then
		xz -dc "$(archive "$obj")" | tar -tf - >"$tmp/members" ||
			{ why "the archive does not unpack"; r=2; }
		why "archive has $(wc -l <"$tmp/members") members (Module.symvers: $(grep -c 'Module.symvers' "$tmp/members"))"
	fi
	return "$r"
}

p_ikheaders_m_modversions()
{
	fresh "$1" ikh-m-modv || return 1
	kmk "$tsrc" "$obj" || return 1
	r=0
	[ -f "$obj/kernel/kheaders.ko" ] || { why "no kernel/kheaders.ko"; r=2; }
	check_symvers "$obj" || r=2
	if [ "$tree" = kembed ] && [ -f "$tmp/symvers" ] &&
		! grep -qv '^0x00000000' "$tmp/symvers"; then
		why "the archive's Module.symvers has no CRC"
		r=2
	fi
	return "$r"
}

p_all_n()
{
	fresh "$1" all-n || return 1
	kmk "$tsrc" "$obj" || return 1
	# nor the programs only kheaders needs (kheaders_strip; fixdep and
	# modpost for the target in kernel/kheaders/)
	left=$(cd "$obj/kernel" && find . -maxdepth 1 \( -name '*.payload*' \
		-o -name '*.ko' -o -name kheaders_data.tar.xz \
		-o -name config_data.gz -o -name kheaders_strip \
		-o -name kheaders \) | tr '\n' ' ')
	# every artifact's symbol, as artifacts.d/ declares them
	syms=$(sed -n 's/^config *= *//p' "$repo"/artifacts.d/* | tr '\n' '|')
	if grep -E "^CONFIG_(${syms}IKCONFIG_PROC|EMBEDDED_BLOB)=" \
		"$obj/.config" >"$tmp/set"; then
		why "set: $(tr '\n' ' ' <"$tmp/set")"
		return 2
	fi
	[ -z "$left" ] || { why "artifacts built: $left"; return 2; }
	echo "ARTIFACTS: none built"
}

# toolchain_checks OBJ: the kernel and, for kembed, the archive's programs
toolchain_checks()
{
	r=0
	check_embedded "$1" vmlinux || r=2
	if [ "$tree" = kembed ]; then
		elf_programs "$1" || { why "the archive does not unpack"; return 2; }
		bad=$(grep -vc 'RISC-V' "$tmp/elf")
		why "$(wc -l <"$tmp/elf") ELF files in the archive, $bad not RISC-V"
		if [ "$bad" -ne 0 ]; then
			grep -v 'RISC-V' "$tmp/elf" | head -n 3
			r=2
		fi
	fi
	return "$r"
}

p_cc_nostdinc()
{
	kcc="ccache ${KEMBED_CROSS}gcc -nostdinc"
	fresh "$1" modsym || return 1
	kmk "$tsrc" "$obj" || return 1
	! grep -qx 'CONFIG_CC_CAN_LINK=y' "$obj/.config" ||
		why "CC_CAN_LINK=y: not a libc-less compiler (note only)"
	toolchain_checks "$obj"
}

p_llvm()
{
	kcc="ccache clang"
	kextra=LLVM=1
	fresh "$1" modsym || return 1
	kmk "$tsrc" "$obj" || return 1
	toolchain_checks "$obj"
}

p_localmodconfig()
{
	fresh "$1" modsym || return 1
	kmk "$tsrc" "$obj" LSMOD="$fix/lsmod" localmodconfig || return 1
	r=0
	for line in CONFIG_CRC_CCITT=m CONFIG_IKCONFIG=y CONFIG_IKHEADERS=y; do
		grep -qx "$line" "$obj/.config" || { why "$line lost"; r=2; }
	done
	return "$r"
}

p_checkkconfigsymbols()
{
	copy=$objdir/$name-$1
	rm -rf "$copy"
	cp -al "$tsrc" "$copy" || return 1
	(
		cd "$copy" || exit 1
		git init -q . && git add -N . || exit 1
		python3 scripts/checkkconfigsymbols.py
	) >"$lists/$name-$1.out" || return 1
	cat "$lists/$name-$1.out"
	cut -f1 "$lists/$name-$1.out" | grep -E '^[A-Z0-9_]+$' | LC_ALL=C sort -u \
		>"$lists/$name-$1"
	rm -rf "$copy"
	[ "$tree" = kembed ] || return 0
	new=$(LC_ALL=C comm -13 "$lists/$name-pristine" \
		"$lists/$name-kembed" | tr '\n' ' ')
	[ -z "$new" ] || { why "undefined symbols only kembed has: $new"; return 2; }
	echo "ARTIFACTS: no undefined symbol pristine does not have"
}

# A private copy of kembed's source tree for the paths that edit
# artifacts.d/; hard links, as only new files are written to it.
kembed_copy()
{
	copy=$work/copy/src
	objdir=$work/copy/o
	if [ ! -f "$copy/.kpaths-run" ] ||
		[ "$(cat "$copy/.kpaths-run")" != "$run_id" ]; then
		rm -rf "$copy"
		mkdir -p "$work/copy"
		cp -al "$kembed_src" "$copy" || return 1
		echo "$run_id" >"$copy/.kpaths-run"
	fi
	rm -f "$copy/artifacts.d/zz-kpaths"
}

# has_symbol SYM: .config mentions CONFIG_SYM (set or not set)
has_symbol()
{
	grep -qE "^(CONFIG_$1=|# CONFIG_$1 is not set)" "$obj/.config"
}

decl()
{
	sed -e "s/@NAME@/$1/" -e "s/@CONFIG@/$2/" "$fix/artifact.decl" \
		>"$copy/artifacts.d/zz-kpaths"
}

p_artifacts_d()
{
	# Plain make syncs the configuration first: make check runs only that
	# step (include/config/auto.conf), make matrix whole builds.
	goal=
	[ "${KEMBED_MATRIX:-0}" = 1 ] || goal=include/config/auto.conf
	kembed_copy || return 1
	fresh "$1" base "$copy" || return 1
	kmk "$copy" "$obj" ${goal:+"$goal"} || return 1
	# an edit comes after the last configuration, as a user's does
	sleep 1
	decl kpathtest KPATHTEST
	kmk "$copy" "$obj" ${goal:+"$goal"} || { why "make after adding a declaration failed"; return 1; }
	r=0
	has_symbol KPATHTEST || { why "added: CONFIG_KPATHTEST not in .config"; r=2; }
	sleep 1
	decl kpathtest KPATHTEST2
	kmk "$copy" "$obj" ${goal:+"$goal"} || { why "make after editing a declaration failed"; return 1; }
	has_symbol KPATHTEST2 || { why "edited: CONFIG_KPATHTEST2 not in .config"; r=2; }
	! has_symbol KPATHTEST || { why "edited: CONFIG_KPATHTEST still in .config"; r=2; }
	sleep 1
	rm -f "$copy/artifacts.d/zz-kpaths"
	kmk "$copy" "$obj" ${goal:+"$goal"} || { why "make after removing a declaration failed"; return 1; }
	! has_symbol KPATHTEST2 || { why "removed: CONFIG_KPATHTEST2 still in .config"; r=2; }
	[ "$r" -ne 0 ] || echo "ARTIFACTS: added, edited, removed: picked up"
	return "$r"
}

p_reserved()
{
	kembed_copy || return 1
	obj=$objdir/reserved-kembed
	if [ ! -f "$obj/.kpaths-run" ] ||
		[ "$(cat "$obj/.kpaths-run")" != "$run_id" ]; then
		save=$name
		name=reserved
		fresh "$1" base "$copy" || { name=$save; return 1; }
		name=$save
		echo "$run_id" >"$obj/.kpaths-run"
	fi
	decl "${name#reserved-}" KPATHTEST
	if kmk "$copy" "$obj" olddefconfig; then
		rm -f "$copy/artifacts.d/zz-kpaths"
		kmk "$copy" "$obj" olddefconfig >/dev/null 2>&1
		why "accepted"
		return 2
	fi
	rm -f "$copy/artifacts.d/zz-kpaths"
	r=0
	grep -q 'artifacts\.d/zz-kpaths:3:' "$log" || { why "failed without FILE:LINE (zz-kpaths:3:)"; r=2; }
	[ "$r" -ne 0 ] || why "refused: $(grep -m 1 'zz-kpaths:3:' "$log")"
	# back to a configured tree for the next name
	kmk "$copy" "$obj" olddefconfig || return 1
	return "$r"
}

# first_error LOG: the first line of LOG that looks like an error
first_error()
{
	grep -m 1 -E '\*\*\*|[Ee]rror|fatal|cannot|Can.t open|No such file|No rule' "$1" |
		cut -c 1-200
}

run_id=$(date +%s)-$$
: >"$tmp/table"
start_all=$(now)
while read -r _ name trees desc; do
	fn=p_$(echo "$name" | tr '-' '_')
	case "$name" in
	reserved-*) fn=p_reserved ;;
	esac
	res_p=n/a
	res_k=
	notes=
	for tree in pristine kembed; do
		[ "$trees" = both ] || [ "$tree" = kembed ] || continue
		if [ "$tree" = pristine ]; then tsrc=$pristine_src; else tsrc=$kembed_src; fi
		log=$work/logs/$name-$tree.log
		: >"$log"
		art=
		kcc="ccache ${KEMBED_CROSS}gcc"
		kjobs=$KEMBED_JOBS
		kextra=
		objdir=$work
		t0=$(now)
		save_name=$name
		# </dev/null: syncconfig asks for new symbols on stdin
		"$fn" "$tree" >>"$log" 2>&1 </dev/null
		rc=$?
		name=$save_name
		secs=$(($(now) - t0))
		case "$rc" in
		0) res=ok ;;
		2) res=artifacts-failed ;;
		*) res=failed ;;
		esac
		if [ "$tree" = pristine ]; then
			res_p=$res
			[ -z "$art" ] || notes="pristine: $art"
			if [ "$rc" -eq 1 ]; then
				res_k=skip
				err_p=$(first_error "$log")
				break
			fi
		else
			res_k=$res
			err_k=$(first_error "$log")
			[ -z "$art" ] || notes="${notes:+$notes; }$art"
		fi
		echo "# $name $tree: $res in $secs s (log: $log)"
	done
	desc="$name pristine=$res_p kembed=$res_k"
	if [ "$res_k" = skip ]; then
		ok "$desc # SKIP pristine fails: $err_p"
	elif [ "$res_k" = ok ]; then
		ok "$desc"
	else
		not_ok "$desc"
		[ "$res_k" != failed ] || echo "# kembed: $err_k"
	fi
	[ -z "$notes" ] || echo "# $notes"
	echo "# $name | $res_p | $res_k | ${notes:--}" >>"$tmp/table"
done <"$tmp/list"

echo "# path | pristine | kembed | artifacts"
cat "$tmp/table"
echo "# $n paths in $(($(now) - start_all)) s; object trees and logs in $work"
tap_result
