#!/usr/bin/env python3
"""Regenerates the encoding test files from the sentences below (written for langsift).
Run from this directory: python3 generate.py. Each file is <lang>.<encoding>.txt."""

TEXT = {
    "ja": "日本語の文章を正しく判定できるかどうかを確かめるための試験用の文書です。"
          "東京は日本の首都であり、多くの人々が毎日電車で通勤しています。"
          "春には桜が咲き、秋には紅葉が美しく、季節の移り変わりを楽しむことができます。"
          "私たちは新しい技術を使って、世界中のウェブページの言語を調べています。\n",
    "zh": "这是一个用于测试字符编码检测的中文文档。北京是中华人民共和国的首都，也是全国的政治和文化中心。"
          "每年春天，公园里开满了鲜花，许多人在周末出去散步。我们正在开发一个工具，用来识别网页的语言和编码。"
          "互联网上有大量的中文内容，正确地解码这些文字非常重要。\n",
    "ko": "이 문서는 문자 인코딩 감지를 시험하기 위한 한국어 문서입니다. "
          "서울은 대한민국의 수도이며 많은 사람들이 매일 지하철을 타고 출근합니다. "
          "봄에는 꽃이 피고 가을에는 단풍이 아름답습니다. "
          "우리는 웹 페이지의 언어와 인코딩을 식별하는 도구를 개발하고 있습니다.\n",
    "ru": "Это тестовый документ для проверки определения кодировки текста. "
          "Москва является столицей Российской Федерации и крупнейшим городом страны. "
          "Весной в парках распускаются цветы, и многие люди гуляют по выходным. "
          "Мы разрабатываем инструмент, который определяет язык и кодировку веб-страниц. "
          "В интернете очень много текстов на русском языке, и их правильное декодирование очень важно.\n",
    "fr": "Ceci est un document de test pour vérifier la détection de l'encodage des caractères. "
          "Paris est la capitale de la France et la ville la plus peuplée du pays. "
          "Au printemps, les fleurs s'épanouissent dans les jardins, et beaucoup de gens se promènent. "
          "Nous développons un outil qui détermine la langue et l'encodage des pages web. "
          "L'été dernier, nous sommes allés à Marseille où il faisait très chaud.\n",
    "en": "This is a plain English test document. It has no accented letters at all, so every\n"
          "byte is seven-bit ASCII and any ASCII-compatible encoding reads it the same way.\n",
}

FILES = [
    ("ja", "shift_jis", "shift_jis"), ("ja", "euc-jp", "euc_jp"), ("ja", "utf-8", "utf-8"),
    ("zh", "gb18030", "gb18030"), ("zh", "big5", "big5"), ("zh", "utf-8", "utf-8"),
    ("ko", "euc-kr", "euc_kr"), ("ko", "utf-8", "utf-8"),
    ("ru", "windows-1251", "cp1251"), ("ru", "koi8-r", "koi8_r"), ("ru", "utf-8", "utf-8"),
    ("fr", "windows-1252", "cp1252"), ("fr", "utf-8", "utf-8"),
    ("fr", "utf-16le", "utf-16-le"), ("fr", "utf-16be", "utf-16-be"),
    ("ja", "utf-16le", "utf-16-le"), ("ja", "utf-16be", "utf-16-be"),
    ("fr", "utf-32le", "utf-32-le"), ("fr", "utf-32be", "utf-32-be"),
    ("en", "ascii", "ascii"),
]

if __name__ == "__main__":
    for lang, name, codec in FILES:
        text = TEXT[lang]
        if lang == "zh" and name == "big5":
            # Big5 is traditional Chinese: the same sentences in traditional characters.
            text = ("這是一個用於測試字元編碼偵測的中文文件。台北是台灣最大的城市，也是政治和文化中心。"
                    "每年春天，公園裡開滿了鮮花，許多人在週末出去散步。我們正在開發一個工具，用來識別網頁的語言和編碼。"
                    "網際網路上有大量的中文內容，正確地解碼這些文字非常重要。\n")
        with open(f"{lang}.{name}.txt", "wb") as f:
            f.write(text.encode(codec))
