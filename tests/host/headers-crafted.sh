#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kembed headers install against crafted archives: each bad archive is
# refused with "kembed headers: ARCHIVE: MEMBER: reason" and installs
# nothing, leaving no temporary directory; a good archive installs with
# owner root and modes 0644/0755 whatever it says. The fixtures are the
# table below: a good base tree (the running kernel's release, members
# owned by 1234, modes 0600 and 0700), then members appended with
# "tar -r ARGS" and, for some, a byte changed. Plain and ASan/UBSan build.
# Installs into a scratch directory under build/ (KEMBED_MODULES), never
# into /lib/modules; needs root (the tool refuses anyone else).
set -eu

repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/lib/tap.sh"

# name|format|member named|reason|tar -r arguments|then (a function, or empty)
# In arguments, @S@ is the directory holding the stage (see stage()), @OUT@
# a directory outside the tree, which must stay empty. Arguments are split
# at white space.
fixtures='
setuid|gnu|./suid|mode 04755: setuid, setgid or sticky bit|-C @S@ --mode=4755 ./suid|
setgid|gnu|./sgid|mode 02755: setuid, setgid or sticky bit|-C @S@ --mode=2755 ./sgid|
sticky|gnu|./sticky/|mode 01777: setuid, setgid or sticky bit|-C @S@ --mode=1777 ./sticky|
chardev|gnu|./null|a character device|-C @S@ ./null|
fifo|gnu|./fifo|a FIFO|-C @S@ ./fifo|
absolute|gnu|@OUT@/abs|absolute path|-C @S@ -P --transform=s,^\./f$,@OUT@/abs, ./f|
absolute-long|gnu|@OUT@/long-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx|absolute path|-C @S@ -P --transform=s,^\./f$,@OUT@/long-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx, ./f|
absolute-pax|posix|@OUT@/pax-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx|absolute path|-C @S@ -P --transform=s,^\./f$,@OUT@/pax-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx, ./f|
dotdot|gnu|../kembed-up|'"'..'"' in the path|-C @S@ -P --transform=s,^\./f$,../kembed-up, ./f|
dotdot-inside|gnu|./x/../../kembed-up|'"'..'"' in the path|-C @S@ -P --transform=s,^\./f$,./x/../../kembed-up, ./f|
symlink-absolute|gnu|./a|symlink to an absolute path|-C @S@ ./a -C @S@/real ./a/passwd|
through-symlink|gnu|./lnk/passwd|goes through the symlink ./lnk|-C @S@ ./lnk -C @S@/real ./lnk/passwd|
symlink-escapes|gnu|./up|symlink to ../../.. leaves the tree|-C @S@ ./up|
symlink-chain|gnu|./c|symlink to b/.. goes through the symlink ./b|-C @S@ ./b ./c|
hardlink-absolute|gnu|./hl|hard link to an absolute path|-C @S@ -P --transform=s,^\./hf$,@OUT@/hf,RSh ./hf ./hl|
hardlink-dotdot|gnu|./hl|hard link to a path with '"'..'"'|-C @S@ -P --transform=s,^\./hf$,../hf,RSh ./hf ./hl|
hardlink-missing|gnu|./hl|hard link to ./nothere, which is not an earlier file of the archive|-C @S@ --transform=s,^\./hf$,./nothere,RSh ./hf ./hl|
hardlink-later|gnu|./hl|hard link to ./later, which is not an earlier file of the archive|-C @S@ --transform=s,^\./hf$,./later,RSh ./hf ./hl ./later|
duplicate|gnu|./Makefile|a second member of that name|-C @S@ ./Makefile|
bad-checksum|gnu|header at byte @END@|bad header checksum|-C @S@ ./f|flip_name
'

# The good tree's members and modes; a symlink and a hard link inside it.
base()
{
	mkdir -p "$1/include/config" "$1/scripts" "$1/include/generated"
	uname -r >"$1/include/config/kernel.release"
	echo 'all:' >"$1/Makefile"
	echo '#define X 1' >"$1/include/generated/x.h"
	printf '#!/bin/sh\necho hi\n' >"$1/scripts/prog"
	ln -s generated/x.h "$1/include/x.h"
	ln "$1/include/generated/x.h" "$1/include/generated/y.h"
	find "$1" -type f -exec chmod 0600 {} +
	find "$1" -type d -exec chmod 0700 {} +
	chmod 0700 "$1/scripts/prog"
}

# What the bad members are made of.
stage()
{
	mkdir -p "$1/sticky" "$1/real/a" "$1/real/lnk" "$1/sub"
	for f in suid sgid f hf later real/a/passwd real/lnk/passwd Makefile; do
		echo "$f" >"$1/$f"
	done
	ln "$1/hf" "$1/hl"
	mknod "$1/null" c 1 3
	mkfifo "$1/fifo"
	ln -s "$out" "$1/a"
	ln -s sub "$1/lnk"
	ln -s ../../.. "$1/up"
	ln -s . "$1/b"
	ln -s b/.. "$1/c"
}

# A byte of the last member's name, which breaks its header's checksum.
flip_name()
{
	printf 'X' | dd of="$1" bs=1 seek="$(($2 + 3))" conv=notrunc status=none
}

# Everything under build/ must be root's and writable by nobody else: the
# tool checks each directory up from its target.
trusted()
{
	d=$1
	while :; do
		[ "$(stat -c %u "$d")" = 0 ] || return 1
		[ $(($(stat -c %#a "$d") & 022)) -eq 0 ] || return 1
		[ "$d" != / ] || return 0
		d=$(dirname "$d")
	done
}

echo "TAP version 13"
if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP needs root: kembed headers install refuses anyone else"
	exit 4
fi
mkdir -p "$repo/build"
if ! trusted "$repo/build"; then
	echo "1..0 # SKIP $repo/build: a directory on the way is not root's alone"
	exit 4
fi
"$repo/qemu/deps" >/dev/null
# shellcheck source=tests/fixtures/userspace/lib.sh
. "$repo/tests/fixtures/userspace/lib.sh"
tmp=$(mktemp -d "$repo/build/headers-crafted.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
chmod 0755 "$tmp"
out=$tmp/outside
mods=$tmp/modules
mkdir -p "$out" "$tmp/base" "$tmp/stage"
base "$tmp/base"
stage "$tmp/stage"

build_tool "$repo/userspace" "$tmp"
ASAN_OPTIONS=exitcode=99:detect_leaks=1
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export ASAN_OPTIONS UBSAN_OPTIONS

# craft ARCHIVE FORMAT [ARG]...: the base tree, then "tar -r ARG...".
craft()
{
	a=$1
	format=$2
	shift 2
	(
		unset TAR_OPTIONS XZ_OPT XZ_DEFAULTS
		LC_ALL=C tar -cf "$a" --format="$format" --owner=1234 \
			--group=1234 --numeric-owner --sort=name -C "$tmp/base" .
		[ "$#" -eq 0 ] || LC_ALL=C tar -rf "$a" --owner=1234 \
			--group=1234 --numeric-owner "$@"
	) 2>"$tmp/craft.err"
}

run_install()
{
	KEMBED_MODULES=$mods "$kembed" headers install --archive "$1" \
		>"$tmp/out" 2>"$tmp/err"
}

# Nothing in the scratch modules directory, nothing outside the tree.
nothing_installed()
{
	[ -z "$(ls -A "$mods")" ] && [ -z "$(ls -A "$out")" ] &&
		! test -e "$tmp/kembed-up"
}

no_leftovers()
{
	[ -z "$(find "$mods" -name '.build.kembed-*')" ]
}

no_sanitizer_report()
{
	! grep -qE 'Sanitizer|runtime error:' "$tmp/err"
}

show()
{
	sed 's/^/# /' "$tmp/err" "$tmp/craft.err"
}

all_root()
{
	[ -z "$(find "$1" \( ! -user 0 -o ! -group 0 \) -print 2>&1)" ]
}

normal_modes()
{
	[ -z "$(find "$1" \( -type d ! -perm 0755 \) -o \
		\( -type f ! -perm 0644 ! -perm 0755 \) -print 2>&1)" ] &&
		[ "$(stat -c %a "$1/scripts/prog")" = 755 ] &&
		[ "$(stat -c %a "$1/Makefile")" = 644 ]
}

links_inside()
{
	test -L "$1/include/x.h" &&
		test "$1/include/generated/x.h" -ef "$1/include/generated/y.h"
}

good()
{
	what=$1
	rm -rf "$mods"
	if run_install "$2" && no_sanitizer_report; then
		ok "$what: installs ($variant)"
	else
		show
		not_ok "$what: installs ($variant)"
	fi
	b=$mods/build
	check "$what: the tree is there ($variant)" \
		cmp -s "$b/include/config/kernel.release" \
		"$tmp/base/include/config/kernel.release"
	check "$what: everything is root's ($variant)" all_root "$b"
	check "$what: directories and programs 0755, files 0644 ($variant)" \
		normal_modes "$b"
	check "$what: the symlink and the hard link inside ($variant)" \
		links_inside "$b"
	check "$what: no temporary directory left ($variant)" no_leftovers
}

# bad NAME FORMAT MEMBER REASON ARGS POST: one line of the table.
bad()
{
	name=$1
	a=$tmp/$name.tar
	args=$(printf '%s' "$5" |
		sed -e "s|@S@|$tmp/stage|g" -e "s|@OUT@|$out|g")
	member=$(printf '%s' "$3" | sed "s|@OUT@|$out|g")
	rm -rf "$mods"
	mkdir -p "$mods"
	# shellcheck disable=SC2086 # the table's arguments, split
	if ! craft "$a" "$2" $args; then
		show
		not_ok "$name: crafted ($variant)"
		return
	fi
	if [ -n "$6" ]; then
		# the header of the member appended last
		end=$(($(LC_ALL=C tar -tvRf "$a" | tail -n 1 |
			sed 's/^block \([0-9]*\):.*/\1/') * 512))
		member=$(printf '%s' "$member" | sed "s|@END@|$end|g")
		"$6" "$a" "$end"
	fi
	xz -f "$a"
	a=$a.xz
	rc=0
	run_install "$a" || rc=$?
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 99 ]; then
		ok "$name: refused ($variant)"
	else
		show
		not_ok "$name: refused ($variant): exit $rc"
	fi
	want="kembed headers: $a: $member: $4"
	if grep -qxF -- "$want" "$tmp/err" && no_sanitizer_report; then
		ok "$name: says '$member: $4' ($variant)"
	else
		show
		echo "# want: $want"
		not_ok "$name: says '$member: $4' ($variant)"
	fi
	check "$name: nothing installed ($variant)" nothing_installed
	check "$name: no temporary directory left ($variant)" no_leftovers
	rm -rf "${out:?}"/* "$tmp/kembed-up"
}

for variant in plain asan; do
	kembed=$tmp/$variant/kembed

	craft "$tmp/good.tar" gnu
	xz -c "$tmp/good.tar" >"$tmp/good.tar.xz"
	good "a good archive (gnu, xz, uid 1234, modes 0600/0700)" \
		"$tmp/good.tar.xz"
	craft "$tmp/good-pax.tar" posix
	good "a good archive (pax, uncompressed)" "$tmp/good-pax.tar"

	while IFS='|' read -r name format member reason args post; do
		[ -z "$name" ] ||
			bad "$name" "$format" "$member" "$reason" "$args" "$post"
	done <<EOT
$fixtures
EOT
done

echo "1..$n"
tap_result
