# examples/examples.mk: the example programs (plain GraphBLAS: they know
# nothing about grbgpu and link with -lgraphblas -lm only), their check
# (examples/check.sh: each example saved with the CPU library, then compared
# under LD_PRELOAD=libgrbgpu.so) and the demo (make demo).

examples_common_src = examples/common.c examples/common.h
examples_libs = -lgraphblas -lm

noinst_PROGRAMS += examples/pagerank examples/gcn examples/attention examples/mlp

examples_pagerank_SOURCES = examples/pagerank.c $(examples_common_src)
examples_pagerank_LDADD = $(examples_libs)
examples_gcn_SOURCES = examples/gcn.c $(examples_common_src)
examples_gcn_LDADD = $(examples_libs)
examples_attention_SOURCES = examples/attention.c $(examples_common_src)
examples_attention_LDADD = $(examples_libs)
examples_mlp_SOURCES = examples/mlp.c $(examples_common_src)
examples_mlp_LDADD = $(examples_libs)

TESTS += examples/check.sh
EXTRA_DIST += examples/check.sh examples/demo.sh

examples_demo_bins = examples/pagerank$(EXEEXT) examples/gcn$(EXEEXT) \
	examples/attention$(EXEEXT) examples/mlp$(EXEEXT)

# make demo: PageRank, GCN, attention and the pruned MLP with the CPU library, with grbgpu on the GPU
# (when nvidia-smi finds one) and with grbgpu's host emulation backend.
demo: $(examples_demo_bins) libgrbgpu.la
	top_builddir='$(abs_top_builddir)' \
	GRBGPU_LIB='$(abs_top_builddir)/.libs/libgrbgpu.so' \
	$(SHELL) $(srcdir)/examples/demo.sh

.PHONY: demo
