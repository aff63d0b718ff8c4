def crlf():
    return 1

class C:
    def m(self):
        return crlf()
