#include "CLifebusSystem.h"

#include <malloc.h>

int lifebus_set_malloc_thresholds(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes) && mallopt(M_TRIM_THRESHOLD, bytes);
}
