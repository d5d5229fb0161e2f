set terminal svg size 720,480 dynamic font 'sans,12'
set output 'error_x.svg'
set termoption noenhanced
set key top left box opaque
set grid
set datafile separator ','
set logscale y
set format y '%.0e'
set xlabel 't (s)'
set ylabel '|x - x_ABM4(h)|'
set title 'Planar spacecraft, H = 0.01, h = 0.001, one corrector iteration: error in x'
plot 'errors.csv' using 1:($2 > 0 ? $2 : 1/0) with lines lw 2 title 'serial (mrabm4)', 'errors.csv' using 1:($3 > 0 ? $3 : 1/0) with lines lw 2 title 'parallel (mrabm4_parallel)'
