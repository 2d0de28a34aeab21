#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The probe cache of scripts/Makefile.compiler (patches/0004), on kembed's
# source tree: a makefile that includes Kbuild.include and Makefile.compiler
# as Kbuild does and calls the probes the kernel's makefiles use, with a
# compiler that logs each start. The outcomes must be those of the
# uncached probes; a tree with a writable .probe-cache/ runs each probe
# once per compiler, whatever the make; a changed compiler runs them
# again; a tree without the directory, one the user cannot write, or
# KBUILD_PROBE_CACHE= keeps nothing; a record cut short breaks nothing.
set -u

repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/lib/tap.sh"
# shellcheck source=qemu/lib.sh
. "$repo/qemu/lib.sh"
cd "$repo" || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kembed-probes.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

echo "TAP version 13"
echo "1..12"

# The tree: the two makefiles of kembed's source tree, a compiler that
# logs, and probes with the characters make would read as syntax
# ($ # % \ @ : =) in their commands.
t=$tmp/tree
mkdir -p "$t/scripts"
cache_lock kernel
qemu/prepare-tree >&2 || { echo "Bail out! qemu/prepare-tree failed"; exit 1; }
src=$CACHE/src
cp "$src/scripts/Kbuild.include" "$src/scripts/Makefile.compiler" \
	"$src/kernel/gen_kheaders.sh" "$t/scripts/"
cache_unlock
cat >"$t/cc" <<'EOF'
#!/bin/sh
echo "$*" >>"${0%/*}/starts"
exec gcc "$@"
EOF
chmod 755 "$t/cc"
# shellcheck disable=SC2016 # make syntax
printf '%s\n' \
	'objtree := .' \
	'include scripts/Kbuild.include' \
	'include scripts/Makefile.compiler' \
	'CC := $(CURDIR)/cc' \
	'LD := ld' \
	'AS := as' \
	'KBUILD_CFLAGS := -O2 -DA="$$x\\" -DB="$(pound)" -DC=@%:= -DD=1' \
	'probes := $(call cc-option,-fno-PIE) $(call cc-option,-fbogus,-fb)' \
	'probes += $(call cc-option-yn,-Wall) $(call cc-option-yn,-Wbogus)' \
	'probes += $(call cc-disable-warning,unused-variable)' \
	'probes += $(call as-instr,nop,as-ok,as-no)' \
	'probes += $(call as-option,-Wa$(comma)--noexecstack)' \
	'probes += $(call ld-option,--build-id=sha1,ld-no)' \
	'all:' \
	'	@echo "$(strip $(probes))"' \
	'	@$(MAKE) -s -f test.mk sub' \
	'sub:' \
	'	@echo "$(strip $(probes))"' \
	>"$t/test.mk"
chmod -R go+rX "$tmp"

# run [MAKE ARG...]: make in the tree, as root or as the user in $as;
# $tmp/out gets the outcomes, $tmp/starts the compiler's starts
as=
run()
{
	rm -f "$t/starts"
	if [ -n "$as" ]; then
		(cd "$t" && setpriv --reuid="$as" --regid="$as" --clear-groups \
			make -s -f test.mk "$@") >"$tmp/out" 2>"$tmp/err"
	else
		(cd "$t" && make -s -f test.mk "$@") >"$tmp/out" 2>"$tmp/err"
	fi || { sed 's/^/# /' "$tmp/err"; return 1; }
	touch "$t/starts"
}

files()
{
	set -- "$t"/.probe-cache/*
	if [ -e "$1" ]; then echo "$#"; else echo 0; fi
}

# is STARTS [FILES]: the outcomes of the uncached probes, with STARTS
# starts of the compiler, and FILES files in .probe-cache/
is()
{
	[ "$(wc -l <"$t/starts")" -eq "$1" ] &&
		cmp -s "$tmp/out" "$tmp/expected" &&
		{ [ "$#" -eq 1 ] || [ "$(files)" -eq "$2" ]; }
}

run || { echo "Bail out! make without a cache failed"; exit 1; }
cp "$tmp/out" "$tmp/expected"
sed 's/^/# outcomes: /' "$tmp/expected" | head -n 1
all=$(wc -l <"$t/starts")
# make and its sub-make run each probe; one probe starts ld, not cc
once=$((all / 2))
check "no .probe-cache/: make and its sub-make run every probe ($all)" \
	test "$once" -eq 7
check "no .probe-cache/: nothing kept" test ! -e "$t/.probe-cache"

mkdir "$t/.probe-cache"
run
check "with .probe-cache/: each probe runs once, the sub-make's none" \
	is "$once" 1
f=$(echo "$t"/.probe-cache/*)
check "... one record per probe" \
	test "$(grep -c '^kbuild-probe-' "$f")" -eq 8
run
check "the next make runs no probe" is 0 1

# A make killed in the middle of a record leaves it without its end.
printf 'kbuild-probe-ok += %s/cc@s-Werror@s-O2' "$t" >>"$f"
run
check "a record cut short is a key of no probe" is 0 1
sed -i '/-Wbogus/d' "$f"
run
check "the record after one cut short is one of its own" is 1 1
run
check "... and is read back" is 0 1

# A new compiler at the same path.
cp "$t/cc" "$t/cc.new"
mv "$t/cc.new" "$t/cc"
run
check "a changed compiler runs the probes again, in a file of its own" \
	is "$once" 2

rm -rf "$t/.probe-cache"
mkdir "$t/.probe-cache"
run KBUILD_PROBE_CACHE=
check "make KBUILD_PROBE_CACHE=: every probe runs, nothing kept" \
	is "$all" 0

# A tree made by root, a build by a user: nothing read or written.
run
chmod 755 "$t/.probe-cache"
chmod 644 "$t"/.probe-cache/*
chmod 777 "$t"
as=$(id -u nobody)
run
check "a .probe-cache/ the user cannot write: every probe runs" is "$all" 1
as=

# The kembed tree: the archive asks for the cache.
# shellcheck disable=SC2016 # the script's text
check "kernel/gen_kheaders.sh puts .probe-cache/ in a module-capable archive" \
	grep -q 'mkdir "$root/.probe-cache"' "$t/scripts/gen_kheaders.sh"
tap_result
