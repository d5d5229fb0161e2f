set terminal svg size 720,480 dynamic font 'sans,12'
set output 'initial_layer.svg'
set termoption noenhanced
set key top left box opaque
set grid
set datafile separator ','
set xlabel 't (s)'
set ylabel 'front foot velocity xf1_dot (m/s)'
set title 'Initial layer, m_N = 0.02, h = 0.2 ms'
plot 'initial_layer.csv' using 1:2 with lines lw 2 title 'full model', '' using 1:3 with linespoints lw 2 title 'quasistatic (corrected)', '' using 1:4 with linespoints lw 2 dt 2 title 'quasistatic_outer'
