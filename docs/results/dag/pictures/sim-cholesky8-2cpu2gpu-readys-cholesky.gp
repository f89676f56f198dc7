# Gantt chart of readys:cholesky: cholesky T=8 on 2cpu+2gpu, noise σ=0.3 (d = max(0, N(E, σE))), makespan 250.3 units. Regenerate: gnuplot sim-cholesky8-2cpu2gpu-readys-cholesky.gp
set terminal pngcairo size 1200,320 font 'sans,9'
set output 'sim-cholesky8-2cpu2gpu-readys-cholesky.png'
set title 'readys:cholesky: cholesky T=8 on 2cpu+2gpu, noise σ=0.3 (d = max(0, N(E, σE))), makespan 250.3 units' noenhanced
set xlabel 'time (units)'
set xrange [0:250.3028429]
set yrange [4-0.5:-0.5]
set ytics ('gpu 0' 0, 'gpu 1' 1, 'cpu 2' 2, 'cpu 3' 3) noenhanced
set key outside right top vertical noenhanced
set style fill solid 0.85 border lc rgb '#303030'
plot 'sim-cholesky8-2cpu2gpu-readys-cholesky.dat' using ($2 == 0 ? ($4 + $5) / 2 : 1/0):3:(($5 - $4) / 2):(0.4) with boxxyerror lc rgb '#1f77b4' title 'POTRF', \
     'sim-cholesky8-2cpu2gpu-readys-cholesky.dat' using ($2 == 1 ? ($4 + $5) / 2 : 1/0):3:(($5 - $4) / 2):(0.4) with boxxyerror lc rgb '#ff7f0e' title 'SYRK', \
     'sim-cholesky8-2cpu2gpu-readys-cholesky.dat' using ($2 == 2 ? ($4 + $5) / 2 : 1/0):3:(($5 - $4) / 2):(0.4) with boxxyerror lc rgb '#2ca02c' title 'TRSM', \
     'sim-cholesky8-2cpu2gpu-readys-cholesky.dat' using ($2 == 3 ? ($4 + $5) / 2 : 1/0):3:(($5 - $4) / 2):(0.4) with boxxyerror lc rgb '#d62728' title 'GEMM'
