#!/usr/bin/env bash
# Builds the outside corpus: Debian's Russian help for LibreOffice and for GIMP, as shipped,
# and the glossary that goes with it: the two programs' Russian interface catalogs.
#
#   corpus/outside/make_corpus.sh [OUT]      (default OUT: .cache/outside)
#
# The two packages are fetched with `apt-get download` (no install, no root needed beyond what
# apt itself asks) and unpacked with `dpkg-deb -x`; only their HTML help pages are copied, under
# OUT/corpus/libreoffice/ and OUT/corpus/gimp/. The package versions and the sha256 of each .deb
# are written to OUT/SOURCES.txt (beside the corpus, not in it: the index would take it for a
# page), so a figure measured on this corpus names what it read.
# The interface catalogs (gettext .mo files of libreoffice-l10n-ru, gimp-data and
# libgegl-common, the Russian ones only) are copied under OUT/glossary/: the index build reads
# their term pairs (`workbench index build --glossary`), so that a question asked in English
# meets a page that names the same menu item or function in Russian, and the other way round.
# The pinned versions are the ones the question set was written against; when the archive no
# longer serves them, the current candidate is taken and the script says so (spans that moved
# are then reported by name when the question set is loaded).
set -euo pipefail
OUT=${1:-.cache/outside}
PINNED=("libreoffice-help-ru=4:7.4.7-1+deb12u14" "gimp-help-ru=2.10.34-2")
CATALOGS=("libreoffice-l10n-ru=4:7.4.7-1+deb12u14" "gimp-data=2.10.34-1+deb12u10"
          "libgegl-common=1:0.4.42-2+deb12u2")
mkdir -p "$OUT/debs"
OUT=$(cd "$OUT" && pwd)
cd "$OUT/debs"
if ! apt-get download "${PINNED[@]}" 2>/dev/null; then
    echo "pinned versions unavailable; updating the package lists and taking the current ones" >&2
    { apt-get update -qq || sudo apt-get update -qq; } >/dev/null 2>&1 || true
    apt-get download libreoffice-help-ru gimp-help-ru
fi
if ! apt-get download "${CATALOGS[@]}" 2>/dev/null; then
    echo "pinned catalog versions unavailable; taking the current ones" >&2
    { apt-get update -qq || sudo apt-get update -qq; } >/dev/null 2>&1 || true
    apt-get download libreoffice-l10n-ru gimp-data libgegl-common
fi
rm -rf "$OUT/unpacked" "$OUT/corpus.new" "$OUT/glossary.new"
mkdir -p "$OUT/unpacked" "$OUT/corpus.new" "$OUT/glossary.new"
for deb in libreoffice-help-ru_*.deb gimp-help-ru_*.deb libreoffice-l10n-ru_*.deb gimp-data_*.deb \
           libgegl-common_*.deb; do
    dpkg-deb -x "$deb" "$OUT/unpacked"
done
# only the pages: images, fonts, scripts and style sheets carry no quotable text
copy_pages() {  # FROM TO: every .html under FROM, with its folders
    mkdir -p "$2"
    (cd "$1" && find . -name '*.html' -print0 | tar --null -T - -cf -) | tar -C "$2" -xf -
}
copy_pages "$OUT/unpacked/usr/share/libreoffice/help/ru" "$OUT/corpus.new/libreoffice"
copy_pages "$OUT/unpacked/usr/share/gimp/2.0/help/ru" "$OUT/corpus.new/gimp"
# the Russian interface catalogs only, one folder per package, so equal file names stay apart
find "$OUT/unpacked/usr/lib/libreoffice/program/resource/ru" -name '*.mo' -exec cp -t "$OUT/glossary.new" {} +
mkdir -p "$OUT/glossary.new/gimp"
find "$OUT/unpacked/usr/share/locale/ru" -name '*.mo' -exec cp -t "$OUT/glossary.new/gimp" {} +
{
    echo "Debian packages unpacked into this corpus (HTML pages only) and its glossary (.mo):"
    for deb in libreoffice-help-ru_*.deb gimp-help-ru_*.deb libreoffice-l10n-ru_*.deb \
               gimp-data_*.deb libgegl-common_*.deb; do
        echo "$(dpkg-deb -f "$deb" Package) $(dpkg-deb -f "$deb" Version) sha256 $(sha256sum "$deb" | cut -d' ' -f1)"
    done
} > "$OUT/SOURCES.txt"
rm -rf "$OUT/corpus" "$OUT/glossary" "$OUT/unpacked"
mv "$OUT/corpus.new" "$OUT/corpus"
mv "$OUT/glossary.new" "$OUT/glossary"
echo "outside corpus: $(find "$OUT/corpus" -name '*.html' | wc -l) pages in $OUT/corpus," \
     "$(find "$OUT/glossary" -name '*.mo' | wc -l) catalogs in $OUT/glossary"
