# SPDX-License-Identifier: GPL-2.0
# The chart of make bench: gnuplot -c bench/chart.gp DAT PNG ARCH, DAT
# being the data file of bench/report.awk: one pair of bars per metric,
# upstream at 1 and kembed at its ratio, each labelled with its value.
set terminal pngcairo size 1200,600 font ",10"
set output ARG2
set title sprintf("make bench: kembed against upstream kheaders (linux-source-6.1, %s base.config)\nbars: relative to upstream (= 1); labels: measured medians", ARG3)
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set yrange [0:*]
set offsets 0, 0, 0.35, 0
set ylabel "kembed / upstream"
set xtics noenhanced rotate by -15 scale 0
set rmargin 14
set bmargin 6
set key outside top center horizontal
set grid ytics
plot ARG1 using 2:xtic(1) title 'upstream kheaders' lc rgb '#9e9e9e', \
	'' using ($3 < 0 ? 0 : $3) title 'kembed' lc rgb '#1f77b4', \
	'' using ($0 - 0.17):2:4 with labels noenhanced rotate by 90 left offset 0.5,0.5 font ",8" notitle, \
	'' using ($0 + 0.17):($3 < 0 ? 0 : $3):(sprintf("%s (%s)", strcol(5), strcol(3))) with labels noenhanced rotate by 90 left offset 0.5,0.5 font ",8" notitle, \
	1 with lines dt 2 lc rgb '#444444' notitle
