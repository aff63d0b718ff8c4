def with_bom():
    return 1
