# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0
# The artifacts of the kernel under test: what its build declared
# (kernel/kembed.mk) and enabled (include/config/auto.conf). tests/run
# copies both to /host for the guest tests, with this file; a host test
# sets $kembed_mk and $auto_conf to the files of its object tree. The tests
# take the list from here, so that a new declaration in artifacts.d/ is
# tested by them without editing them. Sourced, never run.

# mk_value KEY NAME: kembed-KEY-NAME of kembed.mk
mk_value()
{
	awk -v k="kembed-$1-$2" '$1 == k && $2 == ":=" { print $3 }' \
		"${kembed_mk:-/host/kembed.mk}"
}

# artifacts: "name module compression sysfs-file" for each artifact built
# in or as a module; sysfs-file is "-" for none.
artifacts()
{
	awk '$1 == "kembed-artifacts" { print $3 }' \
		"${kembed_mk:-/host/kembed.mk}" |
		while read -r name; do
			grep -Eq "^CONFIG_$(mk_value config "$name")=(y|m)$" \
				"${auto_conf:-/host/auto.conf}" || continue
			sys=-
			[ "$(mk_value sysfs "$name")" != yes ] ||
				sys=/sys/kernel/$name
			echo "$name $(mk_value module "$name")" \
				"$(mk_value compress "$name") $sys"
		done
}

# artifact_modules: their modules, one a line
artifact_modules()
{
	artifacts | cut -d' ' -f2
}
