"""What the bot draws and hands out: ``pictures`` (tables as PNG) and ``fonts`` (every name drawn),
``calendar`` (local times in the club's timezone), ``spreadsheet`` (CSV files a spreadsheet opens as
they are), ``text_width`` (how many columns a text takes in a fixed-width table: CJK 2, marks 0).
"""
