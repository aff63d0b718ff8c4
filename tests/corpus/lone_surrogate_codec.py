# coding: unicode_escape
x = "\ud800 ÿ"
