set terminal svg size 720,480 dynamic font 'sans,12'
set output 'error_theta_B.svg'
set termoption noenhanced
set key top left box opaque
set grid
set datafile separator ','
set logscale y
set format y '%.0e'
set xlabel 't (s)'
set ylabel '|theta_B - theta_B_ABM4(h)|'
set title 'Planar spacecraft, H = 0.01, h = 0.001, one corrector iteration: error in theta_B'
plot 'errors.csv' using 1:($6 > 0 ? $6 : 1/0) with lines lw 2 title 'serial (mrabm4)', 'errors.csv' using 1:($7 > 0 ? $7 : 1/0) with lines lw 2 title 'parallel (mrabm4_parallel)'
