#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The kembed demo, run in the guest by `make demo`: read the kernel's own
# headers archive, build an external module natively against it, load it,
# unload it.  A step whose kernel side is not there yet stops the demo and
# says so; nothing is faked.  With --tap, the same steps print TAP (for
# tests/guest/demo.sh): a missing step is a SKIP, a broken one "not ok".
#
# Usage (in the guest, from /host): demo.sh [--tap]
# Exit status: 0 all steps done; 4 a step is not there yet; 1 a step
# failed.
set -u

tap=
[ "${1:-}" = --tap ] && tap=1
here=$(cd "$(dirname "$0")" && pwd)
work=/tmp/kembed-demo
steps=5
step=0
status=0

say()
{
	[ -n "$tap" ] && echo "# $*" || echo "demo: $*"
}

# done_step DESCRIPTION SECONDS
done_step()
{
	step=$((step + 1))
	if [ -n "$tap" ]; then
		echo "ok $step $1"
	else
		echo "demo: [$step/$steps] $1 ($2 s)"
	fi
}

failed_step()
{
	step=$((step + 1))
	status=1
	if [ -n "$tap" ]; then
		echo "not ok $step $1"
	else
		echo "demo: [$step/$steps] FAILED: $1"
	fi
	stop
}

# missing_step DESCRIPTION REASON [continue]: the kernel side is not
# there yet; stop, unless the next steps can go on without it.
missing_step()
{
	step=$((step + 1))
	status=4
	if [ -n "$tap" ]; then
		echo "ok $step $1 # SKIP not there yet: $2"
	else
		echo "demo: [$step/$steps] NOT THERE YET: $1"
		echo "demo:   $2"
	fi
	[ "${3:-}" = continue ] || stop
}

stop()
{
	if [ -n "$tap" ]; then
		while [ "$step" -lt "$steps" ]; do
			step=$((step + 1))
			echo "ok $step # SKIP an earlier step did not complete"
		done
		[ "$status" -eq 1 ] && exit 1
		exit 0
	fi
	case "$status" in
	0) echo "demo: all $steps steps done" ;;
	4) echo "demo: incomplete: a step above is not there yet" ;;
	esac
	exit "$status"
}

seconds()
{
	date +%s
}

[ -n "$tap" ] && { echo "TAP version 13"; echo "1..$steps"; }
say "kernel $(uname -r) on $(uname -m), gcc $(gcc -dumpfullversion)"
rm -rf "$work"
mkdir -p "$work"

# 1. The archive, where kembed puts it.
archive=/proc/kheaders.tar.xz
if [ -r "$archive" ]; then
	done_step "$archive is there" 0
elif [ -r /sys/kernel/kheaders.tar.xz ]; then
	archive=/sys/kernel/kheaders.tar.xz
	missing_step "/proc/kheaders.tar.xz is there" \
		"going on with upstream's $archive" continue
else
	missing_step "/proc/kheaders.tar.xz is there" \
		"and there is no /sys/kernel/kheaders.tar.xz either"
fi

# 2. Read and extract it.
t=$(seconds)
cat "$archive" >"$work/kheaders.tar.xz" || failed_step "read $archive"
mkdir "$work/kheaders"
xz -dc "$work/kheaders.tar.xz" | tar -x -C "$work/kheaders" ||
	failed_step "extract $archive"
done_step "read $archive ($(wc -c <"$work/kheaders.tar.xz") bytes) and extract it ($(find "$work/kheaders" -type f | wc -l) files)" \
	"$(($(seconds) - t))"

# 3. Build the module against it, natively.
t=$(seconds)
if [ ! -f "$work/kheaders/Makefile" ]; then
	missing_step "build an external module against the archive" \
		"the archive has headers only (no Makefile, .config, scripts/), so 'make -C <archive> M=\$PWD modules' cannot work yet"
fi
cp -r "$here/hello" "$work/hello"
if ! make -C "$work/kheaders" M="$work/hello" modules >"$work/build.log" 2>&1; then
	sed 's/^/  | /' "$work/build.log"
	failed_step "build an external module against the archive"
fi
sed 's/^/  | /' "$work/build.log"
if grep -E -i 'clock skew|in the future' "$work/build.log"; then
	failed_step "build without clock skew warnings"
fi
done_step "build kembed-hello.ko with make -C <archive> M=\$PWD modules" \
	"$(($(seconds) - t))"

# 4. Load it and show its message.
t=$(seconds)
insmod "$work/hello/kembed-hello.ko" || failed_step "insmod kembed-hello.ko"
line=$(dmesg | grep 'kembed-hello: hello' | tail -n 1)
[ -n "$line" ] || failed_step "kembed-hello printed its message"
say "dmesg: $line"
done_step "insmod kembed-hello.ko" "$(($(seconds) - t))"

# 5. Unload it.
t=$(seconds)
rmmod kembed_hello || failed_step "rmmod kembed_hello"
line=$(dmesg | grep 'kembed-hello: goodbye' | tail -n 1)
[ -n "$line" ] || failed_step "kembed-hello said goodbye"
say "dmesg: $line"
done_step "rmmod kembed_hello" "$(($(seconds) - t))"
stop
