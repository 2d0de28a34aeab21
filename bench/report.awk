# SPDX-License-Identifier: GPL-2.0
# The report of make bench (bench/run --report): reads a samples file
# (see "bench/run --help"), prints the METRIC lines and the table, and
# writes the CSV, JSON and gnuplot data files named by -v csv=, json= and
# dat=; -v file= names the samples file in messages. Exits 1, with the
# message on stderr, on a samples file it cannot use.
function fail(msg) {
	printf "%s\n", msg > "/dev/stderr"
	failed = 1
	exit 1
}
function median(key,    n, i, j, v, a) {
	n = count[key]
	for (i = 1; i <= n; i++)
		a[i] = val[key, i]
	for (i = 2; i <= n; i++) {
		v = a[i]
		for (j = i - 1; j >= 1 && a[j] > v; j--)
			a[j + 1] = a[j]
		a[j + 1] = v
	}
	if (n % 2)
		return a[(n + 1) / 2]
	return (a[n / 2] + a[n / 2 + 1]) / 2
}
function need(name, side) {
	if (!((name SUBSEP side) in count))
		fail(file ": no " side " sample of " name)
	return median(name SUBSEP side)
}
function list(name, side,    s, i) {
	s = ""
	for (i = 1; i <= count[name, side]; i++)
		s = s (i > 1 ? ", " : "") val[name, side, i]
	return "[" s "]"
}
function fmt(m, v) {
	if (v == "NA")
		return v
	if (unit[m] == "bytes")
		return sprintf("%d", v)
	return sprintf("%.2f", v)
}
function jstr(s) {
	gsub(/\\/, "\\\\", s)
	gsub(/"/, "\\\"", s)
	gsub(/\t/, " ", s)
	return "\"" s "\""
}
BEGIN {
	n = split("archive_bytes module_bytes module_mem_bytes " \
		"gen_seconds gen_cpu_seconds " \
		"noop_rebuild_seconds noop_rebuild_cpu_seconds " \
		"noop_rebuild_m_seconds noop_rebuild_m_cpu_seconds " \
		"touched_header_extra_seconds " \
		"touched_header_extra_cpu_seconds " \
		"guest_archive_to_module_seconds " \
		"guest_unpack_seconds guest_build_seconds " \
		"guest_insmod_seconds guest_read_seconds " \
		"guest_decompress_seconds guest_extract_seconds " \
		"guest_kbuild_noop_seconds guest_compile_seconds " \
		"guest_modpost_seconds", order, " ")
	goal["archive_bytes"] = 0.95
	goal["gen_seconds"] = goal["gen_cpu_seconds"] = 1.0
	goal["noop_rebuild_seconds"] = 1.0
	goal["noop_rebuild_cpu_seconds"] = 1.0
	goal["noop_rebuild_m_seconds"] = 1.0
	goal["noop_rebuild_m_cpu_seconds"] = 1.0
	goal["guest_archive_to_module_seconds"] = 1.0
	# only kembed reads and extracts an archive
	kembed_only["guest_unpack_seconds"] = 1
	kembed_only["guest_read_seconds"] = 1
	kembed_only["guest_decompress_seconds"] = 1
	kembed_only["guest_extract_seconds"] = 1
	goal["touched_header_extra_seconds"] = 0.1
	goal["touched_header_extra_cpu_seconds"] = 0.1
	# derived metrics: the median of one raw figure minus another
	raw["gen_seconds"] = "gen_make_seconds gen_noop_seconds"
	raw["gen_cpu_seconds"] = \
		"gen_make_cpu_seconds gen_noop_cpu_seconds"
	raw["touched_header_extra_seconds"] = \
		"touched_rebuild_seconds noop_rebuild_seconds"
	raw["touched_header_extra_cpu_seconds"] = \
		"touched_rebuild_cpu_seconds noop_rebuild_cpu_seconds"
	for (i = 1; i <= n; i++) {
		m = order[i]
		unit[m] = m ~ /_bytes$/ ? "bytes" : "seconds"
		if (!(m in raw)) {
			known[m] = 1
			continue
		}
		split(raw[m], parts, " ")
		known[parts[1]] = known[parts[2]] = 1
	}
	nk = 0
	for (m in known)
		if (m ~ /_seconds$/ && m !~ /_cpu_seconds$|^guest_/)
			loads[++nk] = load(m)
	for (i = 1; i <= nk; i++)
		known[loads[i]] = 1
	known["guest_load"] = 1
}
# the load sample of a wall-clock figure
function load(name) {
	if (name ~ /^guest_/)
		return "guest_load"
	sub(/_seconds$/, "_load", name)
	return name
}
{ sub(/\r$/, "") }
/^[ \t]*(#|$)/ { next }
$1 == "info" && NF >= 2 {
	key = $2
	text = $0
	sub(/^[ \t]*info[ \t]+[^ \t]+[ \t]*/, "", text)
	if (!(key in info))
		keys[++ninfo] = key
	info[key] = text
	next
}
$1 == "sample" && NF == 4 {
	if (!($2 in known))
		fail(file ":" NR ": unknown metric: " $2)
	if ($3 != "kembed" && $3 != "upstream")
		fail(file ":" NR ": unknown side: " $3)
	if ($4 !~ /^[0-9]+(\.[0-9]+)?$/)
		fail(file ":" NR ": not a number: " $4)
	k = $2 SUBSEP $3
	val[k, ++count[k]] = $4 + 0
	next
}
{ fail(file ":" NR ": cannot parse: " $0) }
END {
	if (failed)
		exit 1
	for (i = 1; i <= n; i++) {
		m = order[i]
		for (s = 1; s <= 2; s++) {
			side = s == 1 ? "kembed" : "upstream"
			if (m in raw) {
				split(raw[m], parts, " ")
				v = need(parts[1], side) - need(parts[2], side)
			} else if (m ~ /^guest_/ && side == "upstream" && \
			    (m in kembed_only || !((m SUBSEP side) in count))) {
				if ((m SUBSEP side) in count)
					fail(file ": upstream cannot have " m)
				v = "NA"
			} else
				v = need(m, side)
			res[m, side] = v
		}
		k = res[m, "kembed"]
		u = res[m, "upstream"]
		# ratios of the printed (rounded) figures
		if (u == "NA" || fmt(m, u) + 0 <= 0)
			ratio[m] = "NA"
		else
			ratio[m] = sprintf("%.3f", fmt(m, k) / fmt(m, u))
		# a wall-clock time under very different loads
		split(m in raw ? raw[m] : m, parts, " ")
		l = load(parts[1])
		if (ratio[m] != "NA" && l in known && \
		    (l SUBSEP "kembed") in count && \
		    (l SUBSEP "upstream") in count) {
			lk = median(l SUBSEP "kembed")
			lu = median(l SUBSEP "upstream")
			hi = lk > lu ? lk : lu
			lo = lk > lu ? lu : lk
			if (hi - lo > 1 && hi > 1.5 * lo) {
				ratio[m] = "NA"
				why[m] = sprintf("withheld: load %.2f against %.2f", lk, lu)
			}
		}
		if (!(m in goal) || ratio[m] == "NA")
			met[m] = "-"
		else
			met[m] = ratio[m] + 0 <= goal[m] ? "yes" : "no"
	}

	for (i = 1; i <= n; i++) {
		m = order[i]
		printf "METRIC %s kembed=%s upstream=%s ratio=%s\n", m,
			fmt(m, res[m, "kembed"]),
			fmt(m, res[m, "upstream"]), ratio[m]
	}
	printf "\n%-32s %12s %12s %7s %7s %4s\n", "metric", "kembed",
		"upstream", "ratio", "goal", "met"
	print "metric,kembed,upstream,ratio,goal,met" > csv
	for (i = 1; i <= n; i++) {
		m = order[i]
		g = m in goal ? sprintf("<=%.2f", goal[m]) : "-"
		printf "%-32s %12s %12s %7s %7s %4s%s\n", m,
			fmt(m, res[m, "kembed"]),
			fmt(m, res[m, "upstream"]), ratio[m], g, met[m],
			m in why ? "  " why[m] : ""
		printf("%s,%s,%s,%s,%s,%s\n", m,
			fmt(m, res[m, "kembed"]),
			fmt(m, res[m, "upstream"]), ratio[m],
			g == "-" ? "" : g, met[m] == "-" ? "" : met[m]) > csv
		if (ratio[m] != "NA")
			printf("%s 1 %s %s %s\n", m, ratio[m],
				fmt(m, res[m, "upstream"]),
				fmt(m, res[m, "kembed"])) > dat
	}
	for (i = 1; i <= ninfo; i++)
		printf "%s: %s\n", keys[i], info[keys[i]]

	print "{" > json
	print "  \"metrics\": [" > json
	for (i = 1; i <= n; i++) {
		m = order[i]
		printf("    {\"name\": %s, \"unit\": %s, ", jstr(m),
			jstr(unit[m])) > json
		printf("\"kembed\": %s, \"upstream\": %s, \"ratio\": %s, ",
			fmt(m, res[m, "kembed"]),
			res[m, "upstream"] == "NA" ? "null" : \
				fmt(m, res[m, "upstream"]),
			ratio[m] == "NA" ? "null" : ratio[m]) > json
		printf("\"goal\": %s, \"met\": %s,\n",
			m in goal ? goal[m] : "null",
			met[m] == "-" ? "null" : \
				(met[m] == "yes" ? "true" : "false")) > json
		printf "     \"samples\": {" > json
		nr = split(m in raw ? raw[m] : m, parts, " ")
		sep = ""
		for (p = 1; p <= nr; p++)
			for (s = 1; s <= 2; s++) {
				side = s == 1 ? "kembed" : "upstream"
				if (!((parts[p] SUBSEP side) in count))
					continue
				printf("%s\"%s %s\": %s", sep, parts[p], side,
					list(parts[p], side)) > json
				sep = ", "
			}
		printf("}}%s\n", i < n ? "," : "") > json
	}
	print "  ]," > json
	print "  \"info\": {" > json
	for (i = 1; i <= ninfo; i++)
		printf("    %s: %s%s\n", jstr(keys[i]),
			jstr(info[keys[i]]), i < ninfo ? "," : "") > json
	print "  }" > json
	print "}" > json
}
