set terminal svg size 720,480 dynamic font 'sans,12'
set output 'local_error_alpha.svg'
set termoption noenhanced
set key top left box opaque
set grid
set title 'Local error vs h, beta = 0.1 (Fig. 4)'
set logscale xy
set xlabel 'h'
set ylabel 'local error l_x'
set datafile separator ','
set format y '%.0e'
set format x '%.0e'
set yrange [1e-17:1e3]
plot 'local_error.csv' using 1:2 with linespoints title 'sp_ll alpha 10', '' using 1:4 with linespoints title 'sp_ll alpha 100', '' using 1:6 with linespoints title 'sp_ll alpha 1000', '' using 1:3 with lines dt 2 title 'RK4 alpha 10', '' using 1:5 with lines dt 2 title 'RK4 alpha 100', '' using 1:7 with lines dt 2 title 'RK4 alpha 1000'
