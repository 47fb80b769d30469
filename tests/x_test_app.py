"""The window the Computer API tests look at and act on (Tk): a label, an "Apply" button that
changes the label, an entry, and a word drawn on a canvas. Every change is also written to the
JSON file named on the command line, so tests can check what the window really got."""
import json
import os
import sys
import tkinter as tk

state_path = sys.argv[1]
root = tk.Tk()
root.title("OI Test")
root.geometry("420x300+100+100")
font = ("DejaVu Sans", 14)
label = tk.Label(root, text="Waiting", font=font)
label.pack(pady=8)
entry_text = tk.StringVar()


def save(*_):
    tmp = state_path + ".tmp"
    with open(tmp, "w") as f:
        json.dump({"label": label.cget("text"), "entry": entry_text.get(), "clicks": clicks[0]}, f)
    os.replace(tmp, state_path)


clicks = [0]


def apply():
    clicks[0] += 1
    label.config(text="Applied")
    save()


tk.Button(root, text="Apply", font=font, command=apply).pack()
entry = tk.Entry(root, font=font, textvariable=entry_text)
entry.pack(pady=8)
entry_text.trace_add("write", save)
canvas = tk.Canvas(root, width=300, height=90, bg="white", highlightthickness=0)
canvas.pack()
canvas.create_text(150, 25, text="Giraffe", font=("DejaVu Sans", 18))
canvas.create_text(150, 65, text="Onscreen Text", font=("DejaVu Sans", 14))
root.after(300, save)
root.mainloop()
