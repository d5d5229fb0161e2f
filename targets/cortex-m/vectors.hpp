// The interrupt handlers of startup.cpp's vector table that a program may define (weak
// defaults report an unexpected exception): PendSV and SysTick, and the first eight external
// interrupts, which the system program (system_main.cpp) pends in software, one per task.
#pragma once

extern "C" {
void PendSV_Handler();
void SysTick_Handler();
void dualrate_task_irq0();
void dualrate_task_irq1();
void dualrate_task_irq2();
void dualrate_task_irq3();
void dualrate_task_irq4();
void dualrate_task_irq5();
void dualrate_task_irq6();
void dualrate_task_irq7();
}
