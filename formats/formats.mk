# formats/: conversions from a view of GraphBLAS storage to the kernels' forms.
libgrbgpu_la_SOURCES += formats/convert.c formats/convert.h
