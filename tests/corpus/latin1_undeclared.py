def café():
    return "été"
