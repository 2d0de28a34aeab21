#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# An artifact build killed at any point never leaves a truncated or stale
# artifact to be embedded. A kept object tree of the base config
# ($KEMBED_CACHE/build/interrupt-check) is built as is (A) and with another
# CONFIG_LOCALVERSION (B), which changes every artifact: the two references.
# Then the B -> A rebuild is killed with SIGKILL five times, each at a
# random moment of a step and restarted: make in GEN kheaders, the
# generator alone, make in XZ kheaders, xz alone, make after EMBED kheaders
# (the link). After every kill each generated file under its final name
# must be A's or B's, whole, a generator's saved command must come with
# its inputs, and a build that still reports success must embed A's. The last restart must give payloads, blob objects and
# embedded copies (kembed extract, from vmlinux) byte-identical to A's,
# and leave no temporary file behind. The tree is kept, so that the next
# run is warm.
set -u

repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/lib/tap.sh"
cd "$repo" || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kembed-interrupt.XXXXXX")
job=

cleanup()
{
	[ -z "$job" ] || kill -KILL "-$job" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# The generated files of one artifact (by module) that must never be
# wrong: a generator's output too.
outputs()
{
	echo "$1.payload $1.blob.o"
	[ ! -f "$base/kernel/$1.inputs" ] || echo "$1.payload.in"
}

# Seconds since the epoch, with milliseconds.
clock()
{
	date +%s.%3N
}

# Random numbers without $RANDOM (not POSIX): 0 .. $1 - 1
rand()
{
	echo $(($(od -An -tu4 -N4 /dev/urandom) % $1))
}

log()
{
	echo "$tree/.kembed-build.log"
}

# build [--kconfig FRAGMENT]: the tree's build, in the background, in its
# own process group ($job)
start()
{
	rm -f "$(log)"
	setsid qemu/kernel "$@" --objtree "$tree" > "$tmp/build.out" 2>&1 &
	job=$!
}

finish()
{
	wait "$job" 2>/dev/null
	rc=$?
	# what the build left running in its group (after a kill); dash's
	# kill takes no "--"
	kill -KILL "-$job" 2>/dev/null
	job=
	[ "$rc" -eq 0 ] || sed 's/^/# /' "$tmp/build.out" | tail -n 5
	return "$rc"
}

# wait_for PATTERN: until the build log shows PATTERN; fails if the build
# ends first (or after 30 min)
wait_for()
{
	i=0
	while ! grep -q "$1" "$(log)" 2>/dev/null; do
		kill -0 "$job" 2>/dev/null || return 1
		i=$((i + 1))
		[ "$i" -lt 18000 ] || return 1
		sleep 0.1
	done
}

# The steps, as the build log shows them starting; the last one ends with
# the build.
step_gen="GEN .*kernel/kheaders.payload.in"
step_xz="XZ .*kernel/kheaders.payload"
step_embed="EMBED .*kernel/kheaders.blob.o"

# timeline: wait for the running build, printing when each step started
timeline()
{
	t0=$(clock)
	for p in "$step_gen" "$step_xz" "$step_embed"; do
		wait_for "$p" && clock
	done
	finish && clock
}

# save DIR: keep the tree's generated files in DIR
save()
{
	mkdir -p "$1"
	for m in $modules; do
		for f in $(outputs "$m"); do
			cp "$tree/kernel/$f" "$1/$f" || return 1
		done
	done
}

# Every generated file under its final name is A's or B's.
whole()
{
	for m in $modules; do
		for f in $(outputs "$m"); do
			[ -e "$tree/kernel/$f" ] || continue
			cmp -s "$tree/kernel/$f" "$tmp/A/$f" && continue
			cmp -s "$tree/kernel/$f" "$tmp/B/$f" && continue
			echo "# $f: $(wc -c < "$tree/kernel/$f") bytes, neither A's nor B's"
			return 1
		done
	done
	# A generator's saved command never without its inputs: the next
	# build would not run it again when one of them changes.
	for f in "$tree"/kernel/.*.payload.in.sha256.cmd; do
		[ -f "$f" ] || continue
		grep -q '^cmd_' "$f" || continue
		grep -q '^deps_' "$f" && continue
		echo "# ${f##*/}: a command without its inputs"
		return 1
	done
}

# The tree is A: its generated files and what vmlinux embeds.
is_a()
{
	for m in $modules; do
		for f in $(outputs "$m"); do
			cmp -s "$tree/kernel/$f" "$tmp/A/$f" && continue
			echo "# $f is not A's"
			return 1
		done
	done
	while read -r a m comp sys; do
		"$kembed" extract -o "$tmp/embedded" "$a" "$tree/vmlinux" ||
			return 1
		cmp -s "$tmp/embedded" "$tmp/A/$m.payload" || {
			echo "# vmlinux embeds another $a"
			return 1
		}
	done <<EOT
$(artifacts)
EOT
}

# B differs from A in every file, and its payloads are intact.
b_differs()
{
	for m in $modules; do
		for f in $(outputs "$m"); do
			cmp -s "$tmp/A/$f" "$tmp/B/$f" || continue
			echo "# $f: the same in A and B"
			return 1
		done
	done
	while read -r a m comp sys; do
		case "$comp" in
		none) ;;
		*) "$comp" -t -q "$tmp/B/$m.payload" || return 1 ;;
		esac
	done <<EOT
$(artifacts)
EOT
}

# Every file the kill left is whole; if the build still succeeded, it
# embeds A.
interrupted_and_whole()
{
	whole || return 1
	[ "$rc" -ne 0 ] || is_a
}

no_leftovers()
{
	left=$(find "$tree/kernel" "$tree/scripts" -maxdepth 1 \
		\( -name '*.tmp' -o -type d -name '*.payload.in.*' \) |
		head -n 5)
	[ -z "$left" ] && return 0
	echo "$left" | sed 's/^/# left behind: /'
	return 1
}

present()
{
	find "$tree/kernel" -maxdepth 1 \( -name '*.payload' -o \
		-name '*.payload.in' -o -name '*.tmp' -o \
		-type d -name '*.payload.in.*' \) | sed 's|.*/||' | sort |
		tr '\n' ' '
}

verify()
{
	"$kembed" verify "$tree/vmlinux" > "$tmp/verify.out" 2>&1
	rc=$?
	sed 's/^/# /' "$tmp/verify.out"
	return "$rc"
}

# kill_at DESC STEP MS WHAT: restart the A build, SIGKILL WHAT (a pgrep -f
# pattern of one process of the build, or "make": the whole build) at a
# random moment of the first half of STEP (MS ms in B's build; for a
# process, counted from when it appears), then
# check the files. A kill that came too late (the step or the build had
# ended) or did not stop the build is a SKIP if all is right (that kill
# point was not covered), else a failure.
kill_at()
{
	start
	if ! wait_for "$2"; then
		finish
		rc=$?
		# an earlier kill came too late, and the build is complete
		if [ "$rc" -eq 0 ] && is_a > /dev/null; then
			check "$1: # SKIP nothing left to rebuild" true
		else
			check "$1: the build reached '$2'" false
		fi
		return
	fi
	# a process is killed while it runs: wait for it to start
	while [ "$4" != make ] && ! pgrep -g "$job" -f "$4" > /dev/null; do
		kill -0 "$job" 2>/dev/null || break
		sleep 0.05
	done
	ms=$(rand "$(($3 / 2 + 1))")
	sleep "$(awk -v ms="$ms" 'BEGIN { printf "%.3f", ms / 1000 }')"
	running=$(pgrep -g "$job" -l 2>/dev/null | awk '{ print $2 }' |
		grep -vxE 'sh|make|setsid|flock|sleep|kernel' | sort -u |
		tr '\n' ' ')
	late=
	kill -0 "$job" 2>/dev/null || late="the build had ended"
	what="make"
	if [ "$4" != make ]; then
		pid=$(pgrep -g "$job" -f "$4" | head -n 1)
		if [ -n "$pid" ]; then
			what=$(ps -o comm= -p "$pid")
			kill -KILL "$pid"
		else
			late=${late:-"no '$4' left, make killed instead"}
		fi
	fi
	[ "$what" != make ] || kill -KILL "-$job" 2>/dev/null
	finish > /dev/null
	rc=$?
	[ "$rc" -ne 0 ] || late=${late:-"the kill did not stop the build"}
	echo "# running: ${running:-make only}; present: $(present)"
	check "$1: $what killed ${ms} ms into the step, every file left is whole${late:+ # SKIP $late}" \
		interrupted_and_whole
}

echo "TAP version 13"
echo "1..15"

if ! qemu/kernel > /dev/null; then
	echo "Bail out! the base kernel does not build"
	exit 1
fi
base=$(qemu/kernel --print-objtree)
tree=$(dirname "$base")/interrupt-check
# The artifacts the base config builds (tests/lib/artifact-list.sh)
kembed_mk=$base/kernel/kembed.mk
auto_conf=$base/include/config/auto.conf
# shellcheck source=tests/lib/artifact-list.sh
. "$repo/tests/lib/artifact-list.sh"
modules=$(artifact_modules | tr "\n" " ")
kembed=$tmp/userspace/kembed
tool()
{
	make -s -C userspace O="$tmp/userspace" > "$tmp/make.out" 2>&1
}
check "the kembed tool builds" tool

echo 'CONFIG_LOCALVERSION="-interrupted"' > "$tmp/b.config"
t=$(clock)
start
check "the kept tree builds as the base config (A)" finish
echo "# in $(echo "$(clock) - $t" | bc) s"
check "A's payloads are the base tree's" sh -c "
	for m in $modules; do
		cmp '$base/kernel/'\$m.payload '$tree/kernel/'\$m.payload || exit 1
	done"
save "$tmp/A"
check "kembed verifies every artifact in A's vmlinux" verify

start --kconfig "$tmp/b.config"
timeline > "$tmp/timeline"
check "it builds with CONFIG_LOCALVERSION=\"-interrupted\" (B)" \
	test "$(wc -l < "$tmp/timeline")" -eq 4
save "$tmp/B"
check "every file of B differs from A's, its payloads are intact" b_differs
# milliseconds between the steps of B's build, at least 1
{ echo "$t0"; cat "$tmp/timeline"; } | awk '
	NR > 1 { d = int(($1 - last) * 1000); print (d > 0 ? d : 1) }
	{ last = $1 }' > "$tmp/durations"
echo "# B: $(echo "$(tail -n 1 "$tmp/timeline") - $t0" | bc) s;" \
	"GEN kheaders $(sed -n 2p "$tmp/durations") ms," \
	"XZ $(sed -n 3p "$tmp/durations") ms, then $(sed -n 4p "$tmp/durations") ms"
gen_ms=$(sed -n 2p "$tmp/durations")
xz_ms=$(sed -n 3p "$tmp/durations")
late_ms=$(sed -n 4p "$tmp/durations")

# B -> A, killed five times
t=$(clock)
kill_at "make in GEN kheaders" "$step_gen" "${gen_ms:-1}" make
kill_at "the generator in GEN kheaders" "$step_gen" "${gen_ms:-1}" \
	"^sh .*/gen_kheaders.sh kernel/"
kill_at "make in XZ kheaders" "$step_xz" "${xz_ms:-1}" make
kill_at "xz in XZ kheaders" "$step_xz" "${xz_ms:-1}" "^xz "
kill_at "make after EMBED kheaders" "$step_embed" "${late_ms:-1}" make
start
check "the last restart succeeds" finish
echo "# the five kills and the restarts: $(echo "$(clock) - $t" | bc) s"
check "payloads, blob objects and vmlinux's copies are A's" is_a
check "no temporary file left behind" no_leftovers
check "kembed verifies every artifact in vmlinux" verify

tap_result
