set terminal svg size 720,480 dynamic font 'sans,12'
set output 'pendulum_energy.svg'
set termoption noenhanced
set key top left box opaque
set grid
set title 'Pendulum + particle, h = 0.005: total energy (eq. 68)'
set xlabel 't [s]'
set ylabel '|E(t) - E(0)| / |E(0)|'
set logscale y
set format y '%.0e'
set yrange [1e-16:1e8]
set key bottom right box opaque
set datafile separator ','
e0 = -430.45433269903953
plot 'pendulum.csv' using 1:(abs($4-e0)/abs(e0)) with lines title 'sp_ll (frozen linearization)', '' using 1:(abs($5-e0)/abs(e0)) with lines title 'reference (rkf78, 1e-12)', '' using 1:(abs($6-e0)/abs(e0)) with lines lw 2 title 'RK4 (until it diverges)'
