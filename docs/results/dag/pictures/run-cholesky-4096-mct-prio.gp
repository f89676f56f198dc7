# Gantt chart of mct-prio: cholesky T=8 n=4096 on 2 worker(s), measured makespan 305.4 ms. Regenerate: gnuplot run-cholesky-4096-mct-prio.gp
set terminal pngcairo size 1200,230 font 'sans,9'
set output 'run-cholesky-4096-mct-prio.png'
set title 'mct-prio: cholesky T=8 n=4096 on 2 worker(s), measured makespan 305.4 ms' noenhanced
set xlabel 'time (ms)'
set xrange [0:305.40715]
set yrange [2-0.5:-0.5]
set ytics ('cpu 0' 0, 'cpu 1' 1) noenhanced
set key outside right top vertical noenhanced
set style fill solid 0.85 border lc rgb '#303030'
plot 'run-cholesky-4096-mct-prio.dat' using ($2 == 0 ? ($4 + $5) / 2 : 1/0):3:(($5 - $4) / 2):(0.4) with boxxyerror lc rgb '#1f77b4' title 'POTRF', \
     'run-cholesky-4096-mct-prio.dat' using ($2 == 1 ? ($4 + $5) / 2 : 1/0):3:(($5 - $4) / 2):(0.4) with boxxyerror lc rgb '#ff7f0e' title 'SYRK', \
     'run-cholesky-4096-mct-prio.dat' using ($2 == 2 ? ($4 + $5) / 2 : 1/0):3:(($5 - $4) / 2):(0.4) with boxxyerror lc rgb '#2ca02c' title 'TRSM', \
     'run-cholesky-4096-mct-prio.dat' using ($2 == 3 ? ($4 + $5) / 2 : 1/0):3:(($5 - $4) / 2):(0.4) with boxxyerror lc rgb '#d62728' title 'GEMM'
