# coding: no-such-codec
x = "ÿ"
