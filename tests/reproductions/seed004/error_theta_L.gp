set terminal svg size 720,480 dynamic font 'sans,12'
set output 'error_theta_L.svg'
set termoption noenhanced
set key top left box opaque
set grid
set datafile separator ','
set logscale y
set format y '%.0e'
set xlabel 't (s)'
set ylabel '|theta_L - theta_L_ABM4(h)|'
set title 'Planar spacecraft, H = 0.01, h = 0.001, one corrector iteration: error in theta_L'
plot 'errors.csv' using 1:($10 > 0 ? $10 : 1/0) with lines lw 2 title 'serial (mrabm4)', 'errors.csv' using 1:($11 > 0 ? $11 : 1/0) with lines lw 2 title 'parallel (mrabm4_parallel)'
