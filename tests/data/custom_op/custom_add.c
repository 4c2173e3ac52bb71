/* A CPU aot function for ops.Custom (tests/mindspore_api/test_ops_custom.py), written to
 * MindSpore's convention: inputs then outputs in params, with their ranks, shapes and dtypes.
 * CustomAdd: out = x + y for float32; returns 2 for any other dtype (a user-defined error code).
 * CustomScale: out = 3 * x, to check a second symbol of one library. SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <string.h>

static int64_t element_count(int ndim, const int64_t *shape)
{
    int64_t n = 1;
    for (int i = 0; i < ndim; ++i)
        n *= shape[i];
    return n;
}

int CustomAdd(int nparam, void **params, int *ndims, int64_t **shapes, const char **dtypes, void *stream,
              void *extra)
{
    (void)stream;
    (void)extra;
    if (nparam != 3)
        return 1;
    for (int i = 0; i < 3; ++i)
        if (strcmp(dtypes[i], "float32") != 0)
            return 2;
    const float *x = params[0];
    const float *y = params[1];
    float *out = params[2];
    const int64_t n = element_count(ndims[2], shapes[2]);
    for (int64_t i = 0; i < n; ++i)
        out[i] = x[i] + y[i];
    return 0;
}

int CustomScale(int nparam, void **params, int *ndims, int64_t **shapes, const char **dtypes, void *stream,
                void *extra)
{
    (void)stream;
    (void)extra;
    if (nparam != 2 || strcmp(dtypes[0], "float64") != 0)
        return 3;
    const double *x = params[0];
    double *out = params[1];
    const int64_t n = element_count(ndims[0], shapes[0]);
    for (int64_t i = 0; i < n; ++i)
        out[i] = 3.0 * x[i];
    return 0;
}
