#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of tests/guest/robust-{y,m,debug}.sh: the artifact files under
# hostile, concurrent and unprivileged use, and (m, debug) their modules
# loaded and unloaded under readers. The checks are tests/lib/blobcheck.c,
# compiled here; /host/<module>.payload is what the build embedded.
#   robust.sh y|m|debug
set -u

mode=$1

# robust.sh lister: list /proc/embedded_blobs until /tmp/list.stop
# appears; malformed lines go to /tmp/list.bad. A module not loaded is
# listed as "name - - - module".
if [ "$mode" = lister ]; then
	i=0
	while [ ! -e /tmp/list.stop ]; do
		while read -r name size comp sha owner rest; do
			[ -n "$owner" ] && [ -z "$rest" ] &&
				[ "${#sha}" -eq 64 ] && continue
			[ "$size $comp $sha" = "- - -" ] && [ -n "$owner" ] &&
				[ -z "$rest" ] && continue
			echo "$name $size $comp $sha $owner $rest"
		done < /proc/embedded_blobs >> /tmp/list.bad
		i=$((i + 1))
	done
	echo "# /proc/embedded_blobs listed $i times during the cycles"
	exit 0
fi
bc=/tmp/blobcheck
out=/tmp/robust.out
readers=32
cycles=200

# shellcheck source=tests/lib/tap.sh
. /host/tap.sh
# shellcheck source=tests/lib/artifact-list.sh
. /host/artifact-list.sh

# run CMD...: number the "ok"/"not ok" lines CMD prints into our stream;
# a Bail out! or a failing exit without a "not ok" is a "not ok" here.
run()
{
	"$@" > "$out" 2>&1
	rc=$?
	seen_fail=
	while IFS= read -r line; do
		case "$line" in
		"ok "*)
			n=$((n + 1))
			echo "ok $n ${line#ok }"
			;;
		"not ok "*)
			n=$((n + 1))
			echo "not ok $n ${line#not ok }"
			case "$line" in
			*"# TODO"*) ;;
			*) fails=$((fails + 1)); seen_fail=1 ;;
			esac
			;;
		"Bail out!"*)
			not_ok "${line#Bail out! }"
			seen_fail=1
			;;
		"#"*) echo "$line" ;;
		*) echo "# $line" ;;
		esac
	done < "$out"
	[ "$rc" -eq 0 ] || [ -n "$seen_fail" ] || not_ok "$*: exit status $rc"
}

user()
{
	setpriv --reuid=1000 --regid=1000 --clear-groups "$@"
}

now()
{
	date +%s
}

# name module [sysfs file]
artifacts=$(artifacts | awk '{ print $1, $2 ($4 == "-" ? "" : " " $4) }')
modules=$(artifact_modules)
count=$(echo "$modules" | wc -l)

# The module file: /host/<module>.ko if the test copied one (debug: the
# build's unsigned module, see below), else the installed one.
ko()
{
	if [ -f "/host/$1.ko" ]; then
		echo "/host/$1.ko"
	else
		echo "/lib/modules/$(uname -r)/kernel/kernel/$1.ko"
	fi
}

load()
{
	if [ -f "/host/$1.ko" ]; then
		insmod "/host/$1.ko"
	else
		modprobe "$1"
	fi
}

files_of()
{
	echo "/proc/$1${2:+ $2}"
}

echo "TAP version 13"
echo "# robust.sh $mode on $(uname -r)"
t0=$(now)
check "blobcheck compiles with the guest's gcc" \
	gcc -O2 -Wall -o "$bc" /host/blobcheck.c
[ -x "$bc" ] || { echo "1..$n"; exit 1; }

if [ "$mode" = debug ]; then
	# A signature check takes seconds a module here: the cycles below
	# load the build's unsigned modules, once the signed one is known
	# to load (tests/guest/artifacts-sig.sh checks every one).
	signed=/lib/modules/$(uname -r)/kernel/kernel/kbuildinfo.ko
	got=$("$bc" load "$signed")
	[ "$got" != loaded ] || rmmod kbuildinfo
	check "the installed, signed kbuildinfo.ko loads ($got)" \
		test "$got" = loaded
fi
if [ "$mode" != y ]; then
	for m in $modules; do
		check "load $m" load "$m"
	done
fi

# 1. Semantics of every file, as root.
t=$(now)
while read -r name module sys; do
	for f in $(files_of "$name" "$sys"); do
		run "$bc" semantics "$f" "/host/$module.payload"
	done
done <<EOT
$artifacts
EOT
echo "# semantics: $(($(now) - t)) s"

# 2. Load: concurrent readers of the largest artifact, /proc and sysfs.
t=$(now)
run "$bc" readers "$readers" /host/kheaders.payload /proc/kheaders.tar.xz \
	/sys/kernel/kheaders.tar.xz
run "$bc" readers "$((readers * 2))" /host/kheaders.payload \
	/proc/kheaders.tar.xz
echo "# readers: $(($(now) - t)) s"

# 3. Unprivileged users read, and load or unload nothing.
t=$(now)
while read -r name module sys; do
	if [ "$mode" = y ]; then
		# no module file: the permission check comes first anyway
		k=$bc
	else
		k=$(ko "$module")
	fi
	for f in $(files_of "$name" "$sys"); do
		run user "$bc" unprivileged "$f" "/host/$module.payload" "$k" \
			"$module"
	done
done <<EOT
$artifacts
EOT
check "uid 1000 reads /proc/embedded_blobs ($count lines)" \
	test "$(user cat /proc/embedded_blobs | wc -l)" = "$count"
if [ "$mode" = y ]; then
	check "uid 1000 cannot rmmod configs" \
		sh -c '! setpriv --reuid=1000 --regid=1000 --clear-groups rmmod configs 2>/dev/null'
else
	check "uid 1000 cannot rmmod kheaders, which stays loaded" \
		sh -c '! setpriv --reuid=1000 --regid=1000 --clear-groups rmmod kheaders 2>/dev/null && grep -q "^kheaders " /proc/modules'
	check "uid 1000 cannot insmod kheaders.ko after root unloaded it" \
		sh -c "rmmod kheaders && ! setpriv --reuid=1000 --regid=1000 --clear-groups insmod $(ko kheaders) 2>/dev/null && ! grep -q '^kheaders ' /proc/modules"
	check "uid 1000 cannot modprobe it either" \
		sh -c '! setpriv --reuid=1000 --regid=1000 --clear-groups modprobe kheaders 2>/dev/null && ! grep -q "^kheaders " /proc/modules'
	check "uid 1000 reading /proc/kheaders.tar.xz loads it" \
		sh -c 'setpriv --reuid=1000 --regid=1000 --clear-groups cat /proc/kheaders.tar.xz | cmp -s - /host/kheaders.payload && grep -q "^kheaders " /proc/modules'
fi
echo "# unprivileged: $(($(now) - t)) s"

# 4. Module lifecycle: load/unload under readers, unload under open files.
# The files are the module's own (sysfs); the core's /proc file holds the
# module while open, and loads it (5).
kmemleak=/sys/kernel/debug/kmemleak
if [ "$mode" = debug ]; then
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
	check "kmemleak is on" test -w "$kmemleak"
	echo scan > "$kmemleak"
	echo "# kmemleak before the cycles: $(grep -c '^unreferenced object' \
		"$kmemleak") object(s) from boot, cleared"
	grep -A12 '^unreferenced object' "$kmemleak" | head -n 40 |
		sed 's/^/#   /'
	echo clear > "$kmemleak"
fi
if [ "$mode" != y ]; then
	t=$(now)
	# /proc/embedded_blobs, listed all the time as modules come and go
	rm -f /tmp/list.stop /tmp/list.bad
	nice -n 10 sh "$0" lister &
	lister=$!
	while read -r name module sys; do
		nr=0
		[ -z "$sys" ] || nr=2
		# shellcheck disable=SC2086 # no file, or one
		run "$bc" cycle "$(ko "$module")" "$module" "$cycles" "$nr" \
			"/host/$module.payload" $sys
	done <<EOT
$artifacts
EOT
	touch /tmp/list.stop
	wait "$lister"
	check "/proc/embedded_blobs stayed well-formed during the cycles" \
		test ! -s /tmp/list.bad
	head -n 5 /tmp/list.bad 2>/dev/null | sed 's/^/# /'
	echo "# cycles: $(($(now) - t)) s"
	while read -r name module sys; do
		[ -z "$sys" ] && continue
		run "$bc" held "$(ko "$module")" "$module" \
			"/host/$module.payload" "$sys"
	done <<EOT
$artifacts
EOT
	check "all $count modules loaded at the end" \
		test "$(for m in $modules; do grep "^$m " /proc/modules; done |
			wc -l)" = "$count"
	check "/proc/embedded_blobs lists $count artifacts" \
		test "$(wc -l < /proc/embedded_blobs)" = "$count"
fi

# 5. Modules loaded by the first open of their /proc file.
if [ "$mode" != y ]; then
	t=$(now)
	rounds=5
	[ "$mode" != debug ] || rounds=2
	rmmod kheaders
	mem0=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
	check "kheaders not loaded: listed as such in /proc/embedded_blobs" \
		grep -qx 'kheaders.tar.xz - - - kheaders' /proc/embedded_blobs
	check "... and /sys/kernel/kheaders.tar.xz is gone" \
		test ! -e /sys/kernel/kheaders.tar.xz
	while read -r name module sys; do
		run "$bc" autoload "$module" "/host/$module.payload" \
			"/proc/$name" "$readers" "$rounds"
	done <<EOT
$artifacts
EOT
	mem1=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
	echo "# MemAvailable: $mem0 kB with kheaders not loaded, $mem1 kB" \
		"after; /proc/modules: $(grep '^kheaders ' /proc/modules)"
	check "/proc/embedded_blobs lists $count loaded artifacts" \
		test "$(grep -vc ' - - - ' /proc/embedded_blobs)" = "$count"
	# a module that cannot be loaded: modprobe runs /bin/false instead
	rmmod kheaders
	echo 'install kheaders /bin/false' > /etc/modprobe.d/kembed-test.conf
	check "kheaders cannot be loaded: open fails with ENXIO" \
		sh -c 'cat /proc/kheaders.tar.xz 2>&1 >/dev/null | grep -q "No such device or address"'
	check "... and the kernel log names the module" \
		sh -c 'dmesg | grep -q "/proc/kheaders.tar.xz: loading module kheaders failed"'
	check "... and nothing is loaded" \
		sh -c '! grep -q "^kheaders " /proc/modules'
	rm /etc/modprobe.d/kembed-test.conf
	check "once it can, the next open loads it" \
		sh -c 'cmp -s /proc/kheaders.tar.xz /host/kheaders.payload && grep -q "^kheaders " /proc/modules'
	echo "# autoload: $(($(now) - t)) s"
fi
if [ "$mode" = debug ]; then
	for m in $modules; do
		rmmod "$m"
	done
	# kmemleak reports objects at least 5 s old: scan, wait, scan again
	sleep 6
	echo scan > "$kmemleak"
	sleep 1
	echo scan > "$kmemleak"
	leaks=$(grep -c '^unreferenced object' "$kmemleak")
	check "kmemleak: no leak after the cycles ($leaks)" test "$leaks" = 0
	grep -A14 '^unreferenced object' "$kmemleak" | head -n 60 |
		sed 's/^/#   /'
	check "no lockdep, debugobjects or slub report in dmesg" \
		sh -c '! dmesg | grep -E "ODEBUG:|locking dependency|recursive locking|inconsistent lock state|suspicious RCU usage|lock held when returning|BUG |Redzone|Poison overwritten|Object padding|INFO: "'
fi

echo "# robust.sh $mode: $(($(now) - t0)) s"
echo "1..$n"
[ "$fails" -eq 0 ]
