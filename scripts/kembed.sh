#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kembed.sh: turn the declarations in artifacts.d/ into Kbuild input
#
#   kembed.sh kconfig DECLDIR
#	Validate every declaration in DECLDIR and write, in the current
#	(object) directory, kernel/Kconfig.kembed (one tristate per artifact),
#	kernel/kembed.mk (read by scripts/Makefile.kembed) and an instance
#	kernel/<module>.kembed.c for each artifact without a hand-written
#	kernel/<module>.c. Run by the top Makefile before Kconfig, which
#	reads kernel/Kconfig.kembed (init/Kconfig). A file is rewritten only
#	when its text changes. Errors are printed as FILE:LINE: reason;
#	nothing is written then.
#
# The declaration format is documented in artifacts.d/README.

set -eu

me=kembed.sh
# The license tag of the files it generates
spdx=SPDX-License-Identifier

die()
{
	printf '%s: %s\n' "$me" "$*" >&2
	exit 1
}

# Top-level /proc entries that Linux 6.1 creates itself, on some arch or
# config: proc_create*(), proc_mkdir*() or proc_symlink() with a NULL
# parent, and fs/proc/ itself (self, thread-self), plus kembed's own list.
# A declaration may not take one of these names, nor a number (a pid):
# proc_register() would refuse it at boot with a WARN.
reserved_names="acpi apm asound atags bootconfig bootinfo buddyinfo bus
bus_watcher capi cgroups chassis cio_ignore cio_settle cmdline comedi
consoles cpu cpuinfo crypto dasd device-tree devices diskstats dma drbd
driver dvma_map dynamic_debug embedded_blobs execdomains exitcode fb
filesystems fs gsc hardware i8k interrupts io_map iomem ioports irq
kallsyms kcore key-users keys kmsg kpagecgroup kpagecount kpageflags
latency_stats led loadavg lock_stat lockdep lockdep_chains lockdep_stats
locks maps mconsole mdstat megaraid meminfo misc modules mounts mtd mtrr
net nubus pagetypeinfo pal partitions pdc pmu powerpc ppc64 pressure rtas
sal sched_debug schedstat scsi self service_levels slabinfo softirqs
spu_loadavg stat stats swaps sys sysemu sysinfo sysrq-trigger sysvipc
tapedevices therm thread-self timer_list toshiba tty uptime version viafb
vmallocinfo vmcore vmstat zoneinfo"

# Install $1.tmp as $1 unless it is unchanged (keeps the mtime, so Kconfig
# and Kbuild see nothing new).
commit()
{
	if cmp -s "$1.tmp" "$1"; then
		rm -f "$1.tmp"
	else
		mv -f "$1.tmp" "$1"
	fi
}

# Parse and validate all declarations; on success print one record per
# artifact, fields separated by tabs (see the END block).
parse()
{
	LC_ALL=C awk -v srctree="${srctree:-.}" -v reserved="$reserved_names" '
	function err(msg) {
		printf "%s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"
		bad = 1
	}
	function ferr(f, msg) {
		printf "%s:1: %s\n", f, msg > "/dev/stderr"
		bad = 1
	}
	function safe_path(p) {
		return p ~ /^[A-Za-z0-9_.][A-Za-z0-9._+\/-]*$/ &&
		       p !~ /(^|\/)\.\.?(\/|$)/ && p !~ /\/\//
	}
	function finish(f,	k) {
		if (f == "")
			return
		for (k in required)
			if (!((f, k) in val))
				ferr(f, "missing key \047" k "\047")
		if (((f, "source") in val) == ((f, "generator") in val))
			ferr(f, "exactly one of \047source\047 and \047generator\047 is required")
		if (!((f, "module") in val) && ((f, "name") in val)) {
			m = val[f, "name"]
			gsub(/[^A-Za-z0-9_]/, "_", m)
			val[f, "module"] = m
		}
		if (!((f, "compress") in val))
			val[f, "compress"] = "none"
		files[++nfiles] = f
	}
	BEGIN {
		split("name module config prompt help depends source generator " \
		      "compress start-marker end-marker symbol proc-config sysfs",
		      k, " ")
		for (i in k)
			known[k[i]] = 1
		required["name"] = required["config"] = required["prompt"] = 1
		n = split(reserved, r, /[ \t\n]+/)
		for (i = 1; i <= n; i++)
			taken[r[i]] = 1
		comp["none"] = comp["gzip"] = comp["xz"] = comp["zstd"] = 1
	}
	FNR == 1 {
		finish(cur)
		cur = FILENAME
		base = FILENAME
		sub(/.*\//, "", base)
		if (base !~ /^[A-Za-z0-9][A-Za-z0-9._+-]*$/)
			err("unsafe declaration file name")
	}
	length($0) > 256 { err("line longer than 256 characters"); next }
	/^[ \t]*(#|$)/ { next }
	{
		if (!match($0, /^[a-z-]+[ \t]*=/)) {
			err("expected \047key = value\047")
			next
		}
		key = substr($0, 1, RLENGTH - 1)
		sub(/[ \t]+$/, "", key)
		v = substr($0, RLENGTH + 1)
		sub(/^[ \t]+/, "", v)
		sub(/[ \t]+$/, "", v)
		if (!(key in known)) {
			err("unknown key \047" key "\047")
			next
		}
		if (v == "") {
			err("empty value for \047" key "\047")
			next
		}
		if (v ~ /[\001-\037\177]/) {
			err("control character in \047" key "\047")
			next
		}
		if (key != "help" && (cur, key) in val) {
			err("duplicate key \047" key "\047")
			next
		}
		where[cur, key] = FILENAME ":" FNR
		if (key == "name") {
			if (v !~ /^[A-Za-z0-9_][A-Za-z0-9._+-]*$/ || v ~ /\.\./ ||
			    length(v) > 63)
				err("unsafe name \047" v "\047")
			else if ((v in taken) || v ~ /^[0-9]+$/)
				err("name \047" v "\047 is reserved: /proc/" v \
				    " is the kernel\047s own")
			else if (v in byname)
				err("duplicate name \047" v "\047 (first in " byname[v] ")")
			byname[v] = FILENAME ":" FNR
		} else if (key == "module") {
			if (v !~ /^[a-z][a-z0-9_]*$/ || length(v) > 48)
				err("unsafe module name \047" v "\047")
		} else if (key == "config" || key == "proc-config") {
			if (v !~ /^[A-Z][A-Z0-9_]*$/ || length(v) > 48)
				err("bad Kconfig symbol \047" v "\047")
		} else if (key == "prompt") {
			if (v ~ /[$"\\`]/)
				err("\047prompt\047 must not contain $, \", \\ or `")
		} else if (key == "help") {
			if (v ~ /[$\\`]/)
				err("\047help\047 must not contain $, \\ or `")
		} else if (key == "depends") {
			if (v !~ /^[A-Z0-9_ &|!()=]+$/)
				err("bad dependency expression \047" v "\047")
		} else if (key == "source" || key == "generator") {
			if (!safe_path(v))
				err("unsafe path \047" v "\047")
		} else if (key == "compress") {
			if (!(v in comp))
				err("unknown compression \047" v "\047 (none, gzip, xz, zstd)")
		} else if (key == "start-marker" || key == "end-marker") {
			if (v !~ /^[A-Za-z0-9_]+$/ || length(v) > 32)
				err("bad marker \047" v "\047")
		} else if (key == "symbol") {
			if (v !~ /^[A-Za-z_][A-Za-z0-9_]*$/ || length(v) > 48)
				err("bad symbol \047" v "\047")
		} else if (key == "sysfs") {
			if (v != "yes" && v != "no")
				err("\047sysfs\047 is yes or no")
		}
		if (key == "source" || key == "generator")
			pathline[cur] = FNR
		if (key == "help" && (cur, key) in val)
			v = val[cur, key] "\n" v
		val[cur, key] = v
	}
	END {
		finish(cur)
		for (i = 1; i <= nfiles; i++) {
			f = files[i]
			n = split("module config symbol", u, " ")
			for (j = 1; j <= n; j++) {
				if (!((f, u[j]) in val))
					continue
				id = u[j] SUBSEP val[f, u[j]]
				if (id in seen) {
					what = u[j] " \047" val[f, u[j]] "\047"
					ferr(f, "duplicate " what " (also in " seen[id] ")")
				}
				seen[id] = f
			}
		}
		if (bad)
			exit 1
		for (i = 1; i <= nfiles; i++) {
			f = files[i]
			help = val[f, "help"]
			gsub(/\n/, "\001", help)
			printf "%s\t%d", f, (f in pathline) ? pathline[f] : 1
			n = split("name module config prompt depends source generator " \
				  "compress start-marker end-marker symbol proc-config sysfs",
				  o, " ")
			for (j = 1; j <= n; j++)
				printf "\t%s", ((f, o[j]) in val) ? val[f, o[j]] : "-"
			printf "\t%s\n", help == "" ? "-" : help
		}
	}' "$@"
}

# Sources must exist inside the trees, generators inside the source tree
# (the object tree too, in a build without O=), even through symlinks.
# .config is Kconfig's own output, written after this runs.
check_paths()
{
	src=$(cd "${srctree:-.}" && pwd -P)
	obj=$(pwd -P)
	ok=0
	while IFS='	' read -r f line name module config prompt depends source gen \
		rest; do
		for p in "$source" "$gen"; do
			[ "$p" = - ] && continue
			[ "$p" = .config ] && [ "$p" = "$source" ] && continue
			real=
			for t in "$obj" "$src"; do
				[ "$p" = "$gen" ] && [ "$t" != "$src" ] && continue
				if [ -e "$t/$p" ]; then
					real=$(realpath -e "$t/$p")
					break
				fi
			done
			if [ -z "$real" ]; then
				printf '%s:%s: missing %s \047%s\047\n' "$f" "$line" \
					"$([ "$p" = "$gen" ] && echo generator ||
					   echo source)" "$p" >&2
				ok=1
				continue
			fi
			case "$real" in
			"$src"/* | "$obj"/*) ;;
			*)
				printf '%s:%s: \047%s\047 escapes the source tree\n' \
					"$f" "$line" "$p" >&2
				ok=1
				;;
			esac
		done
	done
	return "$ok"
}

kconfig()
{
	decldir=$1

	# Declarations: every regular file but README and dotfiles.
	set --
	for f in "$decldir"/*; do
		case "${f##*/}" in
		README* | .*) continue ;;
		esac
		[ -f "$f" ] && set -- "$@" "$f"
	done

	records=$(mktemp)
	trap 'rm -f "$records"' EXIT
	if [ $# -gt 0 ]; then
		parse "$@" > "$records" || exit 1
		check_paths < "$records" || exit 1
	fi

	mkdir -p kernel
	{
		echo "# Generated from $decldir by $me: do not edit."
		echo
		echo "config EMBEDDED_BLOB"
		echo "	bool"
		while IFS='	' read -r f line name module config prompt depends \
			source gen compress start end symbol procconfig sysfs \
			help; do
			echo
			echo "config $config"
			echo "	tristate \"$prompt\""
			[ "$depends" = - ] || echo "	depends on $depends"
			echo "	select EMBEDDED_BLOB"
			echo "	help"
			if [ "$help" != - ]; then
				printf '%s\n' "$help" | tr '\001' '\n' |
					sed 's/^/	  /'
				echo
			fi
			echo "	  Served read-only as /proc/$name; declared in"
			echo "	  $f."
		done < "$records"
	} > kernel/Kconfig.kembed.tmp

	{
		echo "# Generated from $decldir by $me: do not edit."
		while IFS='	' read -r f line name module config prompt depends \
			source gen compress start end symbol procconfig sysfs \
			help; do
			echo
			echo "kembed-artifacts += $name"
			echo "kembed-blobs-\$(CONFIG_$config) += kernel/$module"
			echo "kembed-decl-$name := $f"
			for kv in "module $module" "config $config" \
				"source $source" "generator $gen" \
				"compress $compress" "start $start" "end $end" \
				"symbol $symbol" "proc-config $procconfig" \
				"sysfs $sysfs"; do
				echo "kembed-${kv%% *}-$name := ${kv#* }"
			done
		done < "$records"
	} > kernel/kembed.mk.tmp

	# Instances of artifacts no longer declared go.
	for f in kernel/*.kembed.c; do
		[ -f "$f" ] || continue
		module=${f#kernel/}
		module=${module%.kembed.c}
		cut -f 4 "$records" | grep -qxF "$module" || rm -f "$f"
	done

	while IFS='	' read -r f line name module config prompt rest; do
		[ -f "${srctree:-.}/kernel/$module.c" ] && continue
		{
			echo "// $spdx: GPL-2.0"
			echo "/* Generated from $f by $me: do not edit. */"
			echo "#include <linux/embedded_blob.h>"
			echo
			echo "EMBEDDED_BLOB();"
			echo "MODULE_LICENSE(\"GPL\");"
			echo "MODULE_DESCRIPTION(\"$prompt\");"
		} > "kernel/$module.kembed.c.tmp"
		commit "kernel/$module.kembed.c"
	done < "$records"

	commit kernel/Kconfig.kembed
	commit kernel/kembed.mk
}

[ $# -ge 1 ] || die "usage: $me kconfig DECLDIR"
cmd=$1
shift
case "$cmd" in
kconfig)
	[ $# -eq 1 ] || die "usage: $me kconfig DECLDIR"
	kconfig "$1"
	;;
*)
	die "unknown command '$cmd'"
	;;
esac
