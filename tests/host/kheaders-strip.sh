#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# scripts/kheaders_strip never changes code. The judge is the compiler, not
# the stripper's own lexer: after line splicing (translation phase 2, done
# here the way GCC does it, blanks between the backslash and the newline
# allowed) and with the blanks before a directive's "#" dropped (gcc
# -fpreprocessed runs unindented #defines only), "gcc -fpreprocessed -dD -E
# -P" replaces comments and prints the tokens; lines are trimmed, empty
# ones dropped, and lines that are not directives joined. The original and the stripped header must give the
# same text. One gcc call per side handles every header, each behind a
# marker line.
#   tests/fixtures/strip/NAME.h: stripped, must be NAME.expected exactly,
#     with the same tokens (literals holding /* or */, // comments, comments
#     in continued macros, SPDX lines, an apostrophe in #error, splices).
#   Then every header of the base kernel's kheaders archive against the
#   file it was made from.
# kernel/gen_kheaders.sh copies the makefiles without their comment lines,
# and make must read the same from them. tests/fixtures/strip/
# make-comments.mk, through the generator, must be make-comments.expected
# and give make the same database; every makefile of the base archive must
# have its original's logical lines (continuations joined, comments cut,
# define and recipe lines as they are).
set -u

repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/lib/tap.sh"
cd "$repo" || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kembed-strip.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# tokens: lines "PATH" on stdin; the token text of each file on stdout,
# after a line "@kembed@ INDEX" (1-based, in the order of the list).
tokens()
{
	LC_ALL=C awk '{
		path = $0
		printf "\n@kembed@ %d\n", NR
		held = ""
		while ((r = (getline line < path)) > 0) {
			if (line ~ /\\[ \t\f\v]*$/) {
				sub(/\\[ \t\f\v]*$/, "", line)
				held = held line
				continue
			}
			line = held line
			held = ""
			# "gcc -fpreprocessed" runs only unindented #defines
			sub(/^[ \t\f\v]+#/, "#", line)
			print line
		}
		if (r < 0) {
			print "kheaders-strip.sh: cannot read " path > "/dev/stderr"
			exit 1
		}
		if (held != "") {
			sub(/^[ \t\f\v]+#/, "#", held)
			print held
		}
		close(path)
	}' | gcc -fpreprocessed -dD -E -P -x c - 2>/dev/null | LC_ALL=C awk '
	{ sub(/^[ \t\f\v\r]+/, ""); sub(/[ \t\f\v\r]+$/, "") }
	$0 == "" { next }
	/^@kembed@ [0-9]+$/ || /^#/ {
		if (text != "")
			print text
		text = ""
		print
		next
	}
	{ text = text == "" ? $0 : text " " $0 }
	END { if (text != "") print text }'
}

# differ A B: the indexes of the files whose token text differs between
# the token outputs A and B, or that are missing from one of them.
differ()
{
	LC_ALL=C awk '
	FNR == 1 { side++ }
	/^@kembed@ [0-9]+$/ { cur = $2; seen[side, cur] = 1; next }
	{ text[side, cur] = text[side, cur] $0 "\n" }
	END {
		for (k in seen) {
			split(k, f, SUBSEP)
			i = f[2]
			if (!((1, i) in seen) || !((2, i) in seen) ||
			    text[1, i] != text[2, i])
				bad[i] = 1
		}
		for (i in bad)
			print i
	}' "$1" "$2" | sort -n
}

# make_lines: lines "PATH" on stdin; make's logical lines of each file on
# stdout, after a line "@kembed@ INDEX": continued lines joined, comments
# cut off (not in a define or a recipe line), empty lines dropped.
make_lines()
{
	LC_ALL=C awk '
	BEGIN {
		define = "^[ \t]*((export|override|private)[ \t]+)*define([ \t]|$)"
	}
	{
		path = $0
		printf "@kembed@ %d\n", NR
		held = ""
		def = 0
		while ((r = (getline line < path)) > 0) {
			line = held line
			if (line ~ /\\$/) {
				held = substr(line, 1, length(line) - 1) "\n"
				continue
			}
			held = ""
			if (def) {
				if (line ~ /^[ \t]*endef([ \t]|$)/)
					def--
				else if (line ~ define)
					def++
				print line
				continue
			}
			if (line !~ /^\t/) {
				gsub(/\\#/, "\001", line)
				sub(/#.*/, "", line)
				gsub(/\001/, "\\#", line)
			}
			if (line ~ /^[ \t\n]*$/)
				continue
			if (line ~ define)
				def++
			print line
		}
		if (r < 0) {
			print "kheaders-strip.sh: cannot read " path > "/dev/stderr"
			exit 1
		}
		if (held != "")
			print held
		close(path)
	}'
}

# same_make_lines ORIG COPY: one file each
same_make_lines()
{
	echo "$1" | make_lines > "$tmp/a.mk"
	echo "$2" | make_lines > "$tmp/b.mk"
	if ! cmp -s "$tmp/a.mk" "$tmp/b.mk"; then
		diff "$tmp/a.mk" "$tmp/b.mk" | head -n 10 | sed 's/^/# /'
		return 1
	fi
}

# make_db MAKEFILE: what make reads from it, as "make -p" prints it
make_db()
{
	d=$tmp/db.$$
	rm -rf "$d"
	mkdir "$d"
	cp "$1" "$d/Makefile"
	(cd "$d" && make -r -R -p -n all 2>&1) |
		grep -v -e '^#' -e '^PWD ' -e '^CURDIR ' -e '^OLDPWD '
	rm -rf "$d"
}

same_make_db()
{
	make_db "$1" > "$tmp/a.db"
	make_db "$2" > "$tmp/b.db"
	if ! cmp -s "$tmp/a.db" "$tmp/b.db"; then
		diff "$tmp/a.db" "$tmp/b.db" | head -n 10 | sed 's/^/# /'
		return 1
	fi
}

# same_tokens ORIG STRIPPED: one file each
same_tokens()
{
	echo "$1" | tokens > "$tmp/a.tok"
	echo "$2" | tokens > "$tmp/b.tok"
	if [ -n "$(differ "$tmp/a.tok" "$tmp/b.tok")" ]; then
		diff "$tmp/a.tok" "$tmp/b.tok" | head -n 10 | sed 's/^/# /'
		return 1
	fi
}

expected()
{
	if ! cmp -s "$1" "$2"; then
		diff "$2" "$1" | head -n 10 | sed 's/^/# /'
		return 1
	fi
}

strip=$tmp/kheaders_strip
set -- tests/fixtures/strip/*.h
echo "TAP version 13"
echo "1..$((2 * $# + 11))"

check "kheaders_strip builds with the host's gcc" \
	gcc -O2 -Wall -o "$strip" scripts/kheaders_strip.c
for h in "$@"; do
	name=$(basename "$h" .h)
	echo "$h $tmp/$name.out" | "$strip" || : > "$tmp/$name.out"
	check "fixture $name: stripped as in $name.expected" \
		expected "$tmp/$name.out" "${h%.h}.expected"
	check "fixture $name: same C tokens as the original" \
		same_tokens "$h" "$tmp/$name.out"
done

# The check can fail (one token changed), and blanks alone do not fail it.
changed_token()
{
	sed 's/^int after_the_macro/long after_the_macro/' "$tmp/macros.out" \
		> "$tmp/changed.h"
	! same_tokens tests/fixtures/strip/macros.h "$tmp/changed.h" > /dev/null
}
more_blanks()
{
	sed 's/^int after_the_macro;/  int   after_the_macro;  /' \
		"$tmp/macros.out" > "$tmp/blanks.h"
	same_tokens tests/fixtures/strip/macros.h "$tmp/blanks.h"
}
check "the token check sees one changed token" changed_token
check "the token check ignores blanks between tokens" more_blanks

# The makefile fixture, through the generator, in a tree of its own.
fake=$tmp/fake
mkfix=tests/fixtures/strip/make-comments
mkdir -p "$fake/scripts" "$fake/include/config"
cp "$strip" "$fake/scripts/kheaders_strip"
cp "$mkfix.mk" "$fake/scripts/Makefile.fixture"
: > "$fake/.config"
: > "$fake/include/config/auto.conf"
echo 6.1.0 > "$fake/include/config/kernel.release"
printf '%s\n' .config include/config/auto.conf include/config/kernel.release \
	"$fake/scripts/Makefile.fixture" > "$fake/list"
(cd "$fake" && srctree=$fake SRCARCH=none sh "$repo/kernel/gen_kheaders.sh" \
	out.tar list && tar -xOf out.tar ./scripts/Makefile.fixture) \
	> "$tmp/mk.out" 2>&1 || sed 's/^/# /' "$tmp/mk.out"
check "fixture make-comments: copied as in make-comments.expected" \
	expected "$tmp/mk.out" "$mkfix.expected"
check "fixture make-comments: make reads the same database" \
	same_make_db "$mkfix.mk" "$tmp/mk.out"
# The check can fail: the line joined to A's, dropped.
joined_line()
{
	grep -v "joined to A" "$tmp/mk.out" > "$tmp/mk.bad"
	! same_make_lines "$mkfix.mk" "$tmp/mk.bad" > /dev/null
}
check "the makefile check sees a dropped continued line" joined_line

# The base kernel's archive: every header against its original.
if ! qemu/kernel > /dev/null; then
	echo "Bail out! the base kernel does not build"
	exit 1
fi
obj=$(qemu/kernel --print-objtree)
src=$(sed -n 's/^include \(.*\)\/Makefile$/\1/p' "$obj/Makefile")
arc=$tmp/archive
mkdir "$arc"
xz -dc "$obj/kernel/kheaders.payload" | tar -xf - -C "$arc"
# The headers of the archive, and where each came from (as the generator
# does it: an absolute input is in the source tree, else the object tree).
while IFS= read -r f; do
	case "$f" in
	/*) p=${f#"$src"/} ;;
	*) p=$f; f=$obj/$f ;;
	esac
	case "$p" in
	include/*.h | arch/*/include/*.h) printf '%s %s\n' "$f" "$p" ;;
	esac
done < "$obj/kernel/kheaders.inputs" > "$tmp/headers"
total=$(wc -l < "$tmp/headers")
cut -d' ' -f1 "$tmp/headers" > "$tmp/orig.list"
cut -d' ' -f2 "$tmp/headers" | sed "s|^|$arc/|" > "$tmp/stripped.list"
archived=$(cd "$arc" && find include arch -name '*.h' | wc -l)

check "the archive holds the $total headers it was made from ($archived)" \
	sh -c "test $archived -eq $total &&
	       xargs ls -d < '$tmp/stripped.list' > /dev/null"
t0=$(date +%s)
tokens < "$tmp/orig.list" > "$tmp/orig.tok"
tokens < "$tmp/stripped.list" > "$tmp/stripped.tok"
differ "$tmp/orig.tok" "$tmp/stripped.tok" > "$tmp/bad"
echo "# tokens of $total headers, both sides, in $(($(date +%s) - t0)) s;" \
	"$(wc -c < "$tmp/orig.tok") bytes of token text"
check "every archived header has its original's C tokens ($(wc -l < "$tmp/bad") differ)" \
	test ! -s "$tmp/bad"
head -n 10 "$tmp/bad" | while read -r i; do
	echo "#   $(sed -n "${i}p" "$tmp/headers" | cut -d' ' -f2)"
done

# Every SPDX line of an original survives.
spdx()
{
	LC_ALL=C awk '{
		c = 0
		while ((getline line < $0) > 0)
			if (line ~ /SPDX-License-Identifier/)
				c++
		close($0)
		print c
	}'
}
spdx < "$tmp/orig.list" > "$tmp/orig.spdx"
spdx < "$tmp/stripped.list" > "$tmp/stripped.spdx"
check "every SPDX-License-Identifier line is kept ($(paste -sd+ "$tmp/orig.spdx" | bc))" \
	cmp -s "$tmp/orig.spdx" "$tmp/stripped.spdx"
orig_size=$(xargs cat < "$tmp/orig.list" | wc -c)
stripped_size=$(xargs cat < "$tmp/stripped.list" | wc -c)
echo "# headers: $orig_size bytes before stripping, $stripped_size after"
check "stripping made the headers smaller" \
	test "$stripped_size" -lt "$orig_size"

# Every makefile of the archive against its original.
while IFS= read -r f; do
	case "$f" in
	/*) p=${f#"$src"/} ;;
	*) continue ;;
	esac
	case "$p" in
	Makefile | */Makefile* | scripts/*.include)
		printf '%s %s\n' "$f" "$p"
		;;
	esac
done < "$obj/kernel/kheaders.inputs" > "$tmp/makefiles"
cut -d' ' -f1 "$tmp/makefiles" | make_lines > "$tmp/orig.mk"
cut -d' ' -f2 "$tmp/makefiles" | sed "s|^|$arc/|" | make_lines \
	> "$tmp/copy.mk"
differ "$tmp/orig.mk" "$tmp/copy.mk" > "$tmp/bad"
orig_size=$(cut -d' ' -f1 "$tmp/makefiles" | xargs cat | wc -c)
copy_size=$(cut -d' ' -f2 "$tmp/makefiles" | sed "s|^|$arc/|" | xargs cat |
	wc -c)
check "every archived makefile has its original's lines for make ($(wc -l < "$tmp/makefiles") files, $(wc -l < "$tmp/bad") differ; $orig_size -> $copy_size bytes)" \
	test ! -s "$tmp/bad" -a -s "$tmp/makefiles"
head -n 10 "$tmp/bad" | while read -r i; do
	echo "#   $(sed -n "${i}p" "$tmp/makefiles" | cut -d' ' -f2)"
done
tap_result
