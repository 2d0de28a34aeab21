#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# qemu/sync-tree on a toy tree: the overlay (userspace/ as tools/kembed/)
# and patches land, unchanged
# files keep their mtime (Kbuild rebuilds by mtime), files that leave the
# overlay come back from pristine, and a bad patch is named.
set -eu

repo=$(cd "$(dirname "$0")/../.." && pwd)
sync="$repo/qemu/sync-tree"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kembed-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

. "$repo/tests/lib/tap.sh"
mtime()
{
	stat -c %Y.%y "$1"
}

echo "TAP version 13"
echo "1..20"

p="$tmp/pristine"
s="$tmp/src"
r="$tmp/repo"
mkdir -p "$p/kernel" "$p/include/linux" "$r/kernel" "$r/patches"
printf 'obj-y += a.o\n' >"$p/kernel/Makefile"
printf 'int a;\n' >"$p/kernel/a.c"
printf '/* old */\n' >"$p/include/linux/old.h"
printf 'static int b;\n' >"$p/kernel/b.c"
cp -a "$p" "$s"
touch -d '2020-01-01' "$s/kernel/Makefile" "$s/kernel/a.c" "$s/kernel/b.c"

printf 'int new;\n' >"$r/kernel/new.c"
printf '#!/bin/sh\n' >"$r/kernel/gen.sh"
chmod +x "$r/kernel/gen.sh"
cat >"$r/patches/0001-build-new.patch" <<'EOT'
diff --git a/kernel/Makefile b/kernel/Makefile
--- a/kernel/Makefile
+++ b/kernel/Makefile
@@ -1 +1,2 @@
 obj-y += a.o
+obj-y += new.o
EOT
cat >"$r/patches/0002-drop-b.patch" <<'EOT'
--- a/kernel/b.c
+++ /dev/null
@@ -1 +0,0 @@
-static int b;
EOT

mkdir -p "$r/tools/testing/selftests/t" "$r/userspace/fuzz"
printf 'int t;\n' >"$r/tools/testing/selftests/t/t.c"
printf 'int main(void) { return 0; }\n' >"$r/userspace/tool.c"
printf '#!/bin/sh\n' >"$r/userspace/fuzz/seeds.sh"
chmod +x "$r/userspace/fuzz/seeds.sh"
mkdir -p "$r/Documentation/ABI/testing"
printf 'What:\t\t/proc/t\n' >"$r/Documentation/ABI/testing/procfs-t"

"$sync" "$p" "$s" "$r" 2>"$tmp/err"
check "overlay file installed" cmp -s "$r/kernel/new.c" "$s/kernel/new.c"
check "tools/ is part of the overlay" \
	cmp -s "$r/tools/testing/selftests/t/t.c" "$s/tools/testing/selftests/t/t.c"
check "Documentation/ is part of the overlay" \
	cmp -s "$r/Documentation/ABI/testing/procfs-t" \
		"$s/Documentation/ABI/testing/procfs-t"
check "userspace/ lands as tools/kembed/" \
	cmp -s "$r/userspace/tool.c" "$s/tools/kembed/tool.c"
check "userspace/ subdirectories and executable bits too" \
	test -x "$s/tools/kembed/fuzz/seeds.sh"
check "overlay keeps the executable bit" test -x "$s/kernel/gen.sh"
check "patch applied" grep -qx 'obj-y += new.o' "$s/kernel/Makefile"
check "patch deletes a file" test ! -e "$s/kernel/b.c"
check "untouched file keeps its mtime" \
	test "$(stat -c %Y "$s/kernel/a.c")" = "$(date -d 2020-01-01 +%s)"

before_new=$(mtime "$s/kernel/new.c")
before_mk=$(mtime "$s/kernel/Makefile")
sleep 1
"$sync" "$p" "$s" "$r" 2>"$tmp/err"
check "rerun: overlay file keeps its mtime" \
	test "$(mtime "$s/kernel/new.c")" = "$before_new"
check "rerun: patched file keeps its mtime" \
	test "$(mtime "$s/kernel/Makefile")" = "$before_mk"
check "rerun: says nothing" test ! -s "$tmp/err"

printf 'int new = 1;\n' >"$r/kernel/new.c"
"$sync" "$p" "$s" "$r" 2>"$tmp/err"
check "edit reaches the tree" cmp -s "$r/kernel/new.c" "$s/kernel/new.c"

# In a git checkout, what git ignores (a build output) stays out.
printf '/tool\n' >"$r/userspace/.gitignore"
printf 'ELF\n' >"$r/userspace/tool"
if git -C "$r" init -q 2>/dev/null; then
	"$sync" "$p" "$s" "$r" 2>"$tmp/err"
	check "git checkout: an ignored build output stays out" \
		test ! -e "$s/tools/kembed/tool"
	check "git checkout: untracked sources still land" \
		cmp -s "$r/userspace/tool.c" "$s/tools/kembed/tool.c"
	rm -rf "$r/.git"
else
	ok "git checkout: an ignored build output stays out # SKIP no git"
	ok "git checkout: untracked sources still land # SKIP no git"
fi
rm "$r/userspace/tool" "$r/userspace/.gitignore"

rm "$r/kernel/new.c" "$r/patches/0002-drop-b.patch"
"$sync" "$p" "$s" "$r" 2>"$tmp/err"
check "file gone from the overlay is removed" test ! -e "$s/kernel/new.c"
check "file no longer deleted is restored" cmp -s "$p/kernel/b.c" "$s/kernel/b.c"

rm "$r/patches/0001-build-new.patch"
"$sync" "$p" "$s" "$r" 2>"$tmp/err"
check "file no longer patched is restored" \
	cmp -s "$p/kernel/Makefile" "$s/kernel/Makefile"

cat >"$r/patches/0003-bad.patch" <<'EOT'
--- a/kernel/a.c
+++ b/kernel/a.c
@@ -1 +1 @@
-int not_there;
+int a = 2;
EOT
if "$sync" "$p" "$s" "$r" 2>"$tmp/err"; then
	not_ok "a patch that does not apply fails"
else
	ok "a patch that does not apply fails"
fi
check "the error names the patch" grep -q 'patches/0003-bad.patch' "$tmp/err"

[ "$fails" -eq 0 ]
