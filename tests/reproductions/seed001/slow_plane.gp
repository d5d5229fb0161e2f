set terminal svg size 720,480 dynamic font 'sans,12'
set output 'slow_plane.svg'
set termoption noenhanced
set key top left box opaque
set grid
set datafile separator ','
set xlabel 'k'
set ylabel 'y'
set key top right box opaque
set title 'Fig. 3: SMFE (N = 1), full model; forward Euler, reduced model'
plot 'plane_reference.csv' using 1:2 with lines lw 3 lc 'black' title 'high accuracy', 'plane_0.2.csv' using 1:2 with linespoints lw 2 title 'SMFE D = 0.2', '' using 3:4 with lines dt 2 lw 2 title 'reduced, Euler D = 0.2', 'plane_0.1.csv' using 1:2 with linespoints lw 2 title 'SMFE D = 0.1', 'plane_0.05.csv' using 1:2 with linespoints lw 2 title 'SMFE D = 0.05'
