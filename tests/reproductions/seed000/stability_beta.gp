set terminal svg size 720,480 dynamic font 'sans,12'
set output 'stability_beta.svg'
set termoption noenhanced
set key top left box opaque
set grid
set title 'sp_ll stability boundary, alpha = 100 (Fig. 3)'
set xlabel 'Re xi'
set ylabel 'Im xi'
set datafile separator ','
set xrange [-4:0.2]
set yrange [0:3]
plot 'stability.csv' index 1 using 4:3 with lines title 'beta 0', '' index 2 using 4:3 with lines title 'beta 0.1', '' index 3 using 4:3 with lines title 'beta 0.5', '' index 3 using 5:3 with lines dt 2 title 'printed M, beta 0.5'
