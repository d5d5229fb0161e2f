set terminal svg size 720,480 dynamic font 'sans,12'
set output 'imaginary_axis.svg'
set termoption noenhanced
set key top left box opaque
set grid
set datafile separator ','
set xlabel 'y'
set ylabel '|R(iy)|'
set yrange [0.6:1.6]
set title 'Stability functions on the imaginary axis z = iy (stable where |R| <= 1)'
plot 'imaginary_axis.csv' using 1:2 with lines lw 2 title '2-5 PRK, fast tableau', '' using 1:3 with lines lw 2 dt 2 title '2-5 PRK, slow tableau', '' using 1:4 with lines lw 2 title 'RK2 (Heun)', '' using 1:5 with lines lw 2 title 'RK4', 1 with lines lc 'black' notitle
