"""Tiny valid PDFs written by hand (no PDF library): text pages, image-only "scanned" pages, metadata.

Each page is a list of lines drawn in Helvetica; ``None`` instead of a list makes a page with no text
layer (a grey rectangle, as a scanned page has only an image). The cross-reference table carries
exact byte offsets, so strict readers accept the files.
"""

from __future__ import annotations

from pathlib import Path


def _escape(line: str) -> str:
    return line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def make_pdf(pages: list[list[str] | None], *, title: str | None = None) -> bytes:
    """The bytes of a PDF with one page per item of ``pages``."""
    objects: list[bytes] = []  # object n is objects[n - 1]
    n_pages = len(pages)
    page_ids = [4 + 2 * i for i in range(n_pages)]
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    kids = " ".join(f"{p} 0 R" for p in page_ids)
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {n_pages} >>".encode())
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    for lines in pages:
        if lines is None:
            stream = b"0.5 g 72 72 468 648 re f"
        else:
            body = " T*\n".join(f"({_escape(line)}) Tj" for line in lines)
            stream = f"BT /F1 12 Tf 14 TL 72 720 Td\n{body}\nET".encode("latin-1")
        page_no = len(objects) + 1
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> "
            f"/Contents {page_no + 1} 0 R >>".encode()
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    info = None
    if title is not None:
        objects.append(f"<< /Title ({_escape(title)}) /Author (lore tests) >>".encode("latin-1"))
        info = len(objects)
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, obj in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + obj + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    trailer = f"<< /Size {len(objects) + 1} /Root 1 0 R" + (f" /Info {info} 0 R" if info else "") + " >>"
    out += f"trailer\n{trailer}\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def write_pdf(path: Path, pages: list[list[str] | None], *, title: str | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(make_pdf(pages, title=title))
    return path


def write_encrypted_pdf(path: Path, pages: list[list[str] | None], *, password: str = "secret") -> Path:
    """A copy of :func:`make_pdf`'s file encrypted with RC4 (pypdf needs no extra package for it)."""
    import io

    import pypdf

    writer = pypdf.PdfWriter(clone_from=pypdf.PdfReader(io.BytesIO(make_pdf(pages))))
    writer.encrypt(user_password=password, owner_password=password + "-owner", algorithm="RC4-128")
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as fh:
        writer.write(fh)
    return path
