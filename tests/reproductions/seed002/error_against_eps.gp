set terminal svg size 720,480 dynamic font 'sans,12'
set output 'error_against_eps.svg'
set termoption noenhanced
set key top left box opaque
set grid
set datafile separator ','
set logscale xy
set xlabel 'foot mass m_N (eps)'
set ylabel 'max platform error'
set title 'Quasistatic solution against the full model'
plot 'error_against_eps.csv' using 1:2 with linespoints lw 2 title 'error'
