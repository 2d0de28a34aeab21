#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kembed-copy: @REPO@/qemu/demo/demo.sh
# kembed-copy: @REPO@/qemu/demo/hello
# The steps of `make demo` as TAP: a step whose kernel side is not there
# yet is a SKIP, a step that breaks is "not ok".
exec /host/demo.sh --tap
