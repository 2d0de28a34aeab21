#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of tests/guest/artifacts-{y,m}.sh: every artifact's /proc file
# against the payload the build produced (copied to /host/<module>.payload).
#   artifacts.sh y|m|sig
# sig: as m, with signed modules (tests/guest/artifacts-sig.sh).
set -u

mode=$1
sig=
if [ "$mode" = sig ]; then
	sig=1
	mode=m
fi

# shellcheck source=tests/lib/tap.sh
. /host/tap.sh
# shellcheck source=tests/lib/artifact-list.sh
. /host/artifact-list.sh

sha()
{
	sha256sum < "$1" | cut -d' ' -f1
}

listed()
{
	grep "^$1 " /proc/embedded_blobs
}

# name module compression
serves()
{
	name=$1 module=$2 comp=$3
	file=/proc/$name
	payload=/host/$module.payload
	owner=builtin
	[ "$mode" = m ] && owner=$module

	check "$name: /proc file exists" test -f "$file"
	check "$name: mode 0444, owned by root" \
		test "$(stat -c '%a %u' "$file")" = "444 0"
	check "$name: stat size is the payload's ($(wc -c < "$payload"))" \
		test "$(stat -c %s "$file")" = "$(wc -c < "$payload")"
	check "$name: sha256 equals the build's payload" \
		test "$(sha "$file")" = "$(sha "$payload")"
	check "$name: listed in /proc/embedded_blobs as $owner" \
		test "$(listed "$name")" = \
		"$name $(wc -c < "$payload") $comp $(sha "$payload") $owner"
	check "$name: the last 100 bytes (SEEK_END) are right" \
		test "$(tail -c 100 "$file" | sha256sum)" = \
		"$(tail -c 100 "$payload" | sha256sum)"
	check "$name: root cannot open it for writing" \
		sh -c "! { echo x >> '$file'; } 2>/dev/null"
	check "$name: still intact after the write attempt" \
		test "$(sha "$file")" = "$(sha "$payload")"
}

# signed MODULE: the installed MODULE.ko ends with a signature
signed()
{
	ko=$(modinfo -n "$1") &&
		test "$(tail -c 28 "$ko")" = "~Module signature appended~" &&
		test "$(modinfo -F sig_id "$1")" = "PKCS#7"
}

echo "TAP version 13"
if [ -n "$sig" ]; then
	for m in $(artifact_modules); do
		check "$m.ko is installed signed" signed "$m"
	done
fi
if [ "$mode" = m ]; then
	for m in $(artifact_modules); do
		check "modprobe $m" modprobe "$m"
	done
fi

while read -r name module comp sys; do
	serves "$name" "$module" "$comp"
done <<EOT
$(artifacts)
EOT

check "/proc/config.gz decompresses to the build's .config" \
	sh -c 'gzip -dc /proc/config.gz | cmp -s - /host/.config'
check "/sys/kernel/kheaders.tar.xz has the same bytes" \
	test "$(sha /sys/kernel/kheaders.tar.xz)" = "$(sha /host/kheaders.payload)"
check "/sys/kernel/kheaders.tar.xz is 0444" \
	test "$(stat -c %a /sys/kernel/kheaders.tar.xz)" = 444
check "/proc/kheaders.tar.xz is a valid xz tar" \
	sh -c 'xz -dc /proc/kheaders.tar.xz | tar -tf - | grep -q "^./include/linux/module.h$"'
check "/proc/buildinfo names the running release" \
	grep -qx "kernel.release: $(uname -r)" /proc/buildinfo
check "/proc/defconfig.gz holds the minimal configuration" \
	sh -c 'gzip -dc /proc/defconfig.gz | grep -qx CONFIG_IKDEFCONFIG='"$mode"
# shellcheck disable=SC2046 # one word a file
check "an unprivileged user can read every artifact" \
	setpriv --reuid=1000 --regid=1000 --clear-groups \
		sh -c 'cat "$@" > /dev/null' sh \
		$(artifacts | awk '{ print "/proc/" $1; if ($4 != "-") print $4 }')

if [ "$mode" = m ]; then
	for m in $(artifact_modules); do
		check "rmmod $m" rmmod "$m"
	done
	check "unloaded: /proc/config.gz, /proc/kheaders.tar.xz stay" \
		sh -c 'test -e /proc/config.gz && test -e /proc/kheaders.tar.xz'
	check "unloaded: /sys/kernel/kheaders.tar.xz goes" \
		test ! -e /sys/kernel/kheaders.tar.xz
	check "unloaded: /proc/embedded_blobs says so" \
		test "$(sort /proc/embedded_blobs)" = \
			"$(artifacts | awk '{ print $1 " - - - " $2 }' | sort)"
	check "reload: reading /proc/kheaders.tar.xz loads kheaders" \
		test "$(sha /proc/kheaders.tar.xz)" = "$(sha /host/kheaders.payload)"
	check "reload: ... which serves /sys/kernel/kheaders.tar.xz again" \
		test "$(sha /sys/kernel/kheaders.tar.xz)" = "$(sha /host/kheaders.payload)"
	check "reload: /proc/embedded_blobs lists it as loaded" \
		grep -qx "kheaders.tar.xz $(wc -c < /host/kheaders.payload) xz $(sha /host/kheaders.payload) kheaders" /proc/embedded_blobs
	check "reload: modprobe configs" modprobe configs
	[ -z "$sig" ] ||
		check "no module taints the kernel as unsigned (E)" \
			test "$(($(cat /proc/sys/kernel/tainted) & 8192))" = 0
else
	check "built in: rmmod has nothing to remove" \
		sh -c '! rmmod configs 2>/dev/null'
fi

echo "1..$n"
[ "$fails" -eq 0 ]
