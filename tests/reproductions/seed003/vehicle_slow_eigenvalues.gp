set terminal svg size 720,480 dynamic font 'sans,12'
set output 'vehicle_slow_eigenvalues.svg'
set termoption noenhanced
set key top left box opaque
set grid
set datafile separator ','
set xlabel 'Re'
set ylabel 'Im'
set title 'Planar vehicle: eigenvalues of the slow sub-Jacobian every 0.05 s of the scenario'
plot 'vehicle_slow_eigenvalues.csv' using 2:3 with points pt 7 ps 0.5 title 'slow'
