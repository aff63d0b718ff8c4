def mixed():
    return 1
def other():
    return mixed()