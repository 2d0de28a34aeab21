#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make series, checked as upstream would: the series (patches/series) applies
# with git am to the pristine linux-source-6.1; the tree after the last
# patch is the one qemu/sync-tree makes from the repository (the tree
# make demo and make check build); checkpatch.pl --strict, run in that
# tree, reports no error and no warning on any patch, and no check but
# the ones the cover letter explains; and after every patch,
# qemu/configs/base.config builds (Image and modules): one incremental
# build per patch in one object tree ($KEMBED_CACHE/series/obj), with
# ccache. The builds take ~7 min warm (a patch that changes a header
# most files include rebuilds most of the tree, from ccache), ~15 min the
# first time: make check leaves them to make matrix (KEMBED_MATRIX=1) and
# make series-check; KEMBED_SERIES_BISECT=1 or 0 says so explicitly.
# The tree after the last patch is built by every other test.
set -eu

repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
# shellcheck source=qemu/lib.sh
. "$repo/qemu/lib.sh"
KEMBED_REPO=$repo
bisect=${KEMBED_SERIES_BISECT:-${KEMBED_MATRIX:-0}}
# The checks the cover letter explains (patches/series.d/cover).
allowed_checks="CAMELCASE"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/kembed-series.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

. "$repo/tests/lib/tap.sh"

echo "TAP version 13"

start=$(now)
if ! patches/series "$tmp/series" >"$tmp/log" 2>&1; then
	echo "1..1"
	sed 's/^/# /' "$tmp/log"
	not_ok "make series"
	exit 1
fi
: >"$tmp/patches"
for patch in "$tmp/series"/[0-9]*.patch; do
	case "$patch" in
	*/0000-*) ;;
	*) echo "$patch" >>"$tmp/patches" ;;
	esac
done
count=$(wc -l <"$tmp/patches")
plan=$((3 + count))
[ "$bisect" = 1 ] && plan=$((plan + count + 1))
echo "1..$plan"
ok "make series: $count patches and a cover letter ($(($(now) - start)) s)"

# A fresh checkout of the pristine tree, sharing the series repository's
# objects, then git am.
tree=$CACHE/series/tree
am=$CACHE/series/am
exec 8>"$CACHE/series-check.lock"
flock 8
if [ ! -d "$am" ] || ! git -C "$am" rev-parse -q --verify HEAD >/dev/null; then
	rm -rf "$am"
	git -C "$tree" worktree prune
	git -C "$tree" worktree add -q --detach "$am" pristine
fi
git -C "$am" am --abort >/dev/null 2>&1 || :
git -C "$am" checkout -q -f --detach pristine
git -C "$am" clean -q -f -d -x
start=$(now)
# shellcheck disable=SC2046 # patch names have no white space
if GIT_COMMITTER_NAME=kembed GIT_COMMITTER_EMAIL=kembed@example.org \
	git -C "$am" am -q $(cat "$tmp/patches") >"$tmp/log" 2>&1; then
	ok "git am applies all $count patches to the pristine tree ($(($(now) - start)) s)"
else
	sed 's/^/# /' "$tmp/log"
	git -C "$am" am --abort >/dev/null 2>&1 || :
	not_ok "git am applies all $count patches to the pristine tree"
fi

# The final tree: qemu/sync-tree on it must change nothing, and install
# exactly the files the series adds, changes or deletes.
pristine=$(qemu/prepare-tree --print-pristine)
rm -f "$am.manifest"
qemu/sync-tree "$pristine" "$am" "$repo" 2>"$tmp/sync"
git -C "$am" status --porcelain >"$tmp/status"
git -C "$am" diff --name-only pristine HEAD | sort >"$tmp/series-files"
sort "$am.manifest" >"$tmp/sync-files"
if [ ! -s "$tmp/status" ] && cmp -s "$tmp/series-files" "$tmp/sync-files"; then
	ok "the tree after the last patch is qemu/sync-tree's ($(wc -l <"$tmp/sync-files") files)"
else
	sed 's/^/# sync-tree changed: /' "$tmp/status" | head -n 20
	diff "$tmp/series-files" "$tmp/sync-files" | sed 's/^/# /' | head -n 20
	not_ok "the tree after the last patch is qemu/sync-tree's"
fi
git -C "$am" checkout -q -f HEAD
git -C "$am" clean -q -f -d -x

# checkpatch in the tree, with Debian's python3 for scripts/spdxcheck.py.
while IFS= read -r patch; do
	name=$(basename "$patch")
	(cd "$am" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl --strict \
		--show-types "$patch") >"$tmp/cp" 2>&1 || :
	total=$(grep '^total:' "$tmp/cp" || echo "no total")
	others=$(grep -v '^total:' "$tmp/cp" | grep -v "^CHECK:\($(echo \
		"$allowed_checks" | sed 's/ /\\|/g')\):" |
		grep -e '^\(ERROR\|WARNING\|CHECK\):' -e 'Traceback' || :)
	if echo "$total" | grep -q '^total: 0 errors, 0 warnings,' &&
		[ -z "$others" ]; then
		ok "checkpatch --strict $name: ${total#total: }"
	else
		printf '%s\n' "$others" | sed 's/^/# /' | head -n 30
		not_ok "checkpatch --strict $name: ${total#total: }"
	fi
done <"$tmp/patches"

[ "$bisect" = 1 ] || exit "$((fails != 0))"

# Bisectability: base.config after every patch, one object tree.
obj=$CACHE/series/obj
mkdir -p "$obj"
kmake()
{
	kbuild_make "$am" "$obj" "$@" >>"$obj/build.log" 2>&1
}
git -C "$am" rev-list --reverse pristine..HEAD >"$tmp/commits"
total=0
k=0
while IFS= read -r commit; do
	k=$((k + 1))
	git -C "$am" checkout -q --detach "$commit"
	start=$(now)
	: >"$obj/build.log"
	{
		cat "$am/kernel/configs/tiny-base.config" \
			"$am/kernel/configs/tiny.config"
		kconfig_fragment qemu/configs/base.config
	} >"$obj/allconfig"
	if kmake KCONFIG_ALLCONFIG="$obj/allconfig" allnoconfig &&
		kmake Image modules; then
		secs=$(($(now) - start))
		total=$((total + secs))
		ok "after patch $k/$count, base.config builds ($secs s)"
	else
		tail -n 30 "$obj/build.log" | sed 's/^/# /'
		not_ok "after patch $k/$count, base.config builds"
	fi
done <"$tmp/commits"
echo "# bisect builds: $total s for $count patches"

# After the last one, every line of base.config holds.
missing=$(kconfig_fragment qemu/configs/base.config | grep '^CONFIG_' |
	while IFS= read -r line; do
		grep -qxF "$line" "$obj/.config" || echo "$line"
	done)
if [ -z "$missing" ]; then
	ok "after the last patch, the .config has every line of base.config"
else
	echo "$missing" | sed 's/^/# missing: /'
	not_ok "after the last patch, the .config has every line of base.config"
fi
[ "$fails" -eq 0 ]
