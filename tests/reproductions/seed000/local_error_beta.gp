set terminal svg size 720,480 dynamic font 'sans,12'
set output 'local_error_beta.svg'
set termoption noenhanced
set key top left box opaque
set grid
set title 'Local error vs h, alpha = 100 (Fig. 5)'
set logscale xy
set xlabel 'h'
set ylabel 'local error l_x'
set datafile separator ','
set format y '%.0e'
set format x '%.0e'
plot 'local_error.csv' using 1:8 with linespoints title 'sp_ll beta 0.01', '' using 1:9 with linespoints title 'sp_ll beta 0.1', '' using 1:10 with linespoints title 'sp_ll beta 0.5'
