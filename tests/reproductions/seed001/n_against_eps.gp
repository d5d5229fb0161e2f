set terminal svg size 720,480 dynamic font 'sans,12'
set output 'n_against_eps.svg'
set termoption noenhanced
set key top left box opaque
set grid
set datafile separator ','
set logscale x
set format x '10^{%L}'
set xlabel 'eps'
set ylabel 'inner steps N'
set termoption enhanced
set title 'SMFE inner steps per macro step (D = 0.5, h_s = eps D)'
plot 'n_against_eps.csv' using 1:2 with linespoints lw 2 title 'N, eq. 14 for every eigenvalue', '' using 1:3 with linespoints lw 2 dt 2 title 'eq. 17 bound'
