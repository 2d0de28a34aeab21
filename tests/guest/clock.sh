#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The guest clock comes from QEMU's goldfish RTC: it is right, and make
# prints no "Clock skew" or "in the future" warnings, also for files that
# come from the host disk.
set -u

# shellcheck source=tests/lib/tap.sh
. /host/tap.sh

echo "TAP version 13"
echo "1..5"
echo "# guest date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
check "the year is 2025 or later" test "$(date +%Y)" -ge 2025
check "an RTC is registered" test -e /sys/class/rtc/rtc0

dir=$(mktemp -d)
cat >"$dir/hello.c" <<'EOT'
#include <stdio.h>
int main(void) { puts("hello from the guest's gcc"); return 0; }
EOT
# The test script itself was written by the host: a prerequisite with a
# host timestamp.
cat >"$dir/Makefile" <<'EOT'
hello: hello.c /host/clock.sh
	$(CC) -o $@ hello.c
EOT
make -C "$dir" >"$dir/make.log" 2>&1
rc=$?
sed 's/^/# /' "$dir/make.log"
check "make builds a C program in /tmp" test "$rc" -eq 0
no_skew()
{
	! grep -E -i 'clock skew|in the future' "$dir/make.log"
}
runs()
{
	"$dir/hello" | grep -q "hello from the guest"
}
check "make printed no clock skew warnings" no_skew
check "the program runs" runs
rm -rf "$dir"
[ "$fails" -eq 0 ]
