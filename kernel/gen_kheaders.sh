#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The kheaders archive, as a kembed generator (scripts/Makefile.kembed):
#
#   gen_kheaders.sh --inputs	list every file the archive is made from
#   gen_kheaders.sh OUT LIST	write the tar of the files in LIST to OUT
#
# The archive is a tree that external modules build against, on the target
# itself: "make -C DIR M=\$PWD modules". It holds the headers (without
# comments, see scripts/kheaders_strip), the Kbuild makefiles (without
# comment lines) and scripts that build reads, .config, auto.conf,
# kernel.release, Module.symvers and scripts/module.lds, and the
# programs it runs (fixdep, modpost, genksyms with MODVERSIONS,
# recordmcount and objtool where used), built for the target by
# kernel/kheaders/Makefile. No key or certificate and no absolute path of
# the build goes in.
#
# Those programs need a compiler that links programs for the target
# (CONFIG_CC_CAN_LINK). Without one, or without CONFIG_MODULES, the archive
# holds the headers and the configuration only, and its Makefile and
# HEADERS-ONLY say so. When the make that linked vmlinux built no modules
# ("make Image"), Module.symvers lists vmlinux's exports only, and
# kheaders-notes.txt says so.
#
# The tar is reproducible: sorted, owned by 0:0, normalized modes (0644,
# 0755 for programs and directories), a fixed mtime,
# whatever the umask, locale or TAR_OPTIONS. OUT is replaced atomically,
# and left alone when its bytes would not change.

set -eu

me=gen_kheaders.sh
strip=scripts/kheaders_strip
srctree=${srctree:?"$me: run me from Kbuild"}
# This script: an input of the archive, but not in it
self=${0#"$srctree"/}
SRCARCH=${SRCARCH:?"$me: run me from Kbuild"}

config=${KCONFIG_CONFIG:-.config}

# The configuration, in every archive.
obj_files="$config include/config/auto.conf include/config/kernel.release"

# Files of the source tree that the external module build reads.
src_files="Makefile scripts/Kbuild.include scripts/subarch.include
scripts/check-local-export scripts/depmod.sh scripts/modules-check.sh
scripts/pahole-flags.sh scripts/gen_ksymdeps.sh"

# The list of inputs is made on every build: each process it starts
# costs more than the shell's own work, so the configuration is read once.
autoconf="
$(cat include/config/auto.conf)
"

enabled()
{
	case "$autoconf" in
	*"
CONFIG_$1=y
"*) return 0 ;;
	esac
	return 1
}

# Where the architecture has no C recordmcount, Kbuild runs the perl one.
if enabled FTRACE_MCOUNT_USE_RECORDMCOUNT &&
	[ -z "${BUILD_C_RECORDMCOUNT:-}" ]; then
	src_files="$src_files scripts/recordmcount.pl"
fi

# Whether external modules can be built against the archive.
modules_buildable()
{
	enabled MODULES && enabled CC_CAN_LINK
}

# The exported symbols external modules link against: Module.symvers when
# this make builds the modules (vmlinux waits for modpost then) or when an
# earlier one made it after vmlinux's exports last changed; else only
# vmlinux's own, vmlinux.symvers ("make Image" in a fresh tree).
symvers()
{
	# shellcheck disable=SC3013 # -nt: in dash, bash and busybox sh
	if [ -n "${KBUILD_MODULES:-}" ] || { [ -f Module.symvers ] &&
		! [ vmlinux.symvers -nt Module.symvers ]; }
	then
		echo Module.symvers
	else
		echo vmlinux.symvers
	fi
}

# The programs the external module build runs, as kernel/kheaders/Makefile
# builds them for the target: PATH-IN-ARCHIVE PROGRAM
programs()
{
	modules_buildable || return 0
	echo "scripts/basic/fixdep kernel/kheaders/fixdep"
	echo "scripts/mod/modpost kernel/kheaders/modpost"
	if enabled MODVERSIONS; then
		echo "scripts/genksyms/genksyms kernel/kheaders/genksyms"
	fi
	if [ -n "${BUILD_C_RECORDMCOUNT:-}" ]; then
		echo "scripts/recordmcount kernel/kheaders/recordmcount"
	fi
	if enabled OBJTOOL; then
		echo "tools/objtool/objtool kernel/kheaders/objtool"
	fi
}

# What a headers-only archive says, in HEADERS-ONLY and from its Makefile.
headers_only_note()
{
	if ! enabled MODULES; then
		cat <<EOT
This kernel's headers archive holds its headers and configuration only:
the kernel was built without CONFIG_MODULES, so it loads no modules.
EOT
		return
	fi
	cat <<EOT
This kernel's headers archive holds its headers and configuration only:
external modules cannot be built against it. The kernel was built with a
compiler that cannot link programs for the target (CONFIG_CC_CAN_LINK is
not set, as with a cross compiler without the target's C library), so
the archive lacks fixdep and modpost, which "make M=... modules" runs.
Build modules in the kernel's own build tree, or rebuild the kernel with
a compiler that can link programs for the target.
EOT
}

# The Makefile of a headers-only archive: any target fails with the note.
headers_only_makefile()
{
	cat <<'EOT'
# No external module builds against this archive: see HEADERS-ONLY.
Makefile: ;
%:
	@cat $(dir $(lastword $(MAKEFILE_LIST)))HEADERS-ONLY >&2
	@false
.DEFAULT_GOAL := modules
EOT
}

# Archive path of an input: relative to the tree it came from.
archive_path()
{
	case "$1" in
	"$config") echo .config ;;
	vmlinux.symvers) echo Module.symvers ;;
	"$srctree"/*) echo "${1#"$srctree"/}" ;;
	*) echo "$1" ;;
	esac
}

inputs()
{
	dirs="include arch/$SRCARCH/include"

	# A generated header in the object tree hides one of the same name
	# in the source tree.
	{
		# shellcheck disable=SC2086 # $dirs is a list of plain words
		(cd "$srctree" && find $dirs -name '*.h' -printf 's %p\n')
		if [ "${building_out_of_srctree:-}" ]; then
			# shellcheck disable=SC2086
			find $dirs -name '*.h' -printf 'o %p\n' 2>/dev/null
		fi
	} | LC_ALL=C sort -k2,2 -k1,1 | LC_ALL=C awk -v src="$srctree" '
		$2 == "include/generated/utsversion.h" { next }
		$2 == prev { next }
		{ prev = $2; print ($1 == "o" ? "" : src "/") $2 }'

	for f in $obj_files; do
		echo "$f"
	done
	if modules_buildable; then
		echo scripts/module.lds
		symvers
		for f in $src_files; do
			echo "$srctree/$f"
		done
		for f in "$srctree/arch/$SRCARCH"/Makefile* \
			"$srctree"/scripts/Makefile.*; do
			echo "$f"
		done
		programs | while read -r path prog; do
			echo "$prog"
		done
	fi
	echo "$0"
	echo "$strip"
}

# Copy makefiles ("INPUT OUTPUT" lines) without their comment lines, as
# the headers are without comments. A line that starts with "#" means
# nothing to make unless it is in a define or joined to another line by a
# backslash; those, and SPDX lines, stay.
strip_make()
{
	LC_ALL=C awk '
	BEGIN {
		define = "^[ \t]*((export|override|private)[ \t]+)*define([ \t]|$)"
	}
	{
		cont = def = 0
		printf "" > $2
		while ((r = getline line < $1) > 0) {
			if (!cont && !def && line ~ /^#/ &&
			    line !~ /SPDX-License-Identifier|\\$/)
				continue
			print line > $2
			if (!cont && def && line ~ /^[ \t]*endef([ \t]|$)/)
				def--
			else if (!cont && line ~ define)
				def++
			cont = line ~ /\\$/
		}
		if (r < 0 || close($2)) {
			print "'"$me"': cannot copy " $1 > "/dev/stderr"
			exit 1
		}
		close($1)
	}'
}

# Put the target's programs into the tree $1, or say why there are none.
add_programs()
{
	root=$1

	if ! modules_buildable; then
		headers_only_note > "$root/HEADERS-ONLY"
		headers_only_makefile > "$root/Makefile"
		return
	fi
	programs | while read -r path prog; do
		mkdir -p "$root/${path%/*}"
		cp "$prog" "$root/$path"
	done
	# Where each make keeps the outcomes of its compiler probes, so that
	# the next one does not start the compiler again for them (see
	# scripts/Makefile.compiler).
	mkdir "$root/.probe-cache"
}

generate()
{
	out=$1 list=$2

	# a fixed name: a build killed here leaves nothing the next one
	# does not remove
	tmp=$out.tmp
	rm -rf "$tmp"
	mkdir "$tmp"
	trap 'rm -rf "$tmp"' EXIT
	root=$tmp/root
	mkdir "$root"

	while read -r f; do
		path=$(archive_path "$f")
		case "$path" in
		include/*.h | "arch/$SRCARCH/include/"*.h)
			printf '%s %s\n' "$f" "$root/$path" >&3
			;;
		kernel/kheaders/* | "$self" | "$strip")
			;;
		Makefile | */Makefile* | scripts/*.include)
			mkdir -p "$root/$(dirname "$path")"
			printf '%s %s\n' "$f" "$root/$path" >&4
			;;
		*)
			mkdir -p "$root/$(dirname "$path")"
			cp "$f" "$root/$path"
			;;
		esac
	done < "$list" 3> "$tmp/headers" 4> "$tmp/makefiles"
	"$strip" < "$tmp/headers"
	strip_make < "$tmp/makefiles"
	add_programs "$root"
	if grep -qx vmlinux.symvers "$list"; then
		echo "Module.symvers lists what vmlinux exports, not what" \
		     "the kernel's own modules export: the make that linked" \
		     "vmlinux built no modules. An external module using a" \
		     "symbol of one of them fails in modpost." \
		     > "$root/kheaders-notes.txt"
	fi

	mtime=${KBUILD_BUILD_TIMESTAMP:+"$KBUILD_BUILD_TIMESTAMP"}
	(
		unset TAR_OPTIONS
		cd "$root"
		LC_ALL=C tar --sort=name --format=gnu --owner=0 --group=0 \
			--numeric-owner --mode=a+rX,u+w,go-w \
			--mtime="${mtime:-@0}" -cf ../out.tar .
	)
	if cmp -s "$tmp/out.tar" "$out"; then
		return
	fi
	mv -f "$tmp/out.tar" "$out"
}

case "$#:${1:-}" in
1:--inputs)
	inputs
	;;
2:*)
	generate "$1" "$2"
	;;
*)
	echo "usage: $me --inputs | OUT LIST" >&2
	exit 2
	;;
esac
