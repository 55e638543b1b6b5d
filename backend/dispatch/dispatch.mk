# backend/dispatch/dispatch.mk: what is this call (a plan, or a named reason
# to decline), and the dispatcher that runs the plan.
libgrbgpu_la_SOURCES += \
	backend/dispatch/classify.c backend/dispatch/classify.h \
	backend/dispatch/dispatch.c
