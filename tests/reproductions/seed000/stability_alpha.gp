set terminal svg size 720,480 dynamic font 'sans,12'
set output 'stability_alpha.svg'
set termoption noenhanced
set key top left box opaque
set grid
set title 'sp_ll stability boundary, beta = 0.1 (Fig. 2)'
set xlabel 'Re xi'
set ylabel 'Im xi'
set datafile separator ','
set xrange [-4:0.2]
set yrange [0:3]
plot 'stability.csv' index 0 using 4:3 with lines title 'alpha 10', '' index 2 using 4:3 with lines title 'alpha 100', '' index 4 using 4:3 with lines title 'alpha 1000', '' index 2 using 5:3 with lines dt 2 title 'printed M, alpha 100', '' index 2 using 6:3 with lines dt 3 title 'RK4 of (1-beta^2) lambda_s'
