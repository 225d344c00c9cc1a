"""The service a scikit-learn user would write: TfidfVectorizer(sublinear_tf=True) +
MultinomialNB(alpha=0.01) trained on a label<TAB>text file, behind FastAPI, with bowline's request
and response shape (POST /v1/models/sms/classify {"texts": [...]}).

    uvicorn --app-dir benches sklearn_serve:app --workers N --http httptools --loop uvloop
                                                   (TRAIN names the training TSV)

benches/serve.sh runs it as deployed: uvicorn[standard]'s httptools parser and uvloop event loop,
one worker process per core, each worker training its own copy of the model when it starts.
"""
import csv
import os

from fastapi import FastAPI
from pydantic import BaseModel
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.naive_bayes import MultinomialNB
from sklearn.pipeline import make_pipeline

labels, texts = [], []
with open(os.environ["TRAIN"], encoding="utf-8") as f:
    for row in csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
        if len(row) >= 2 and row[0] != "label":
            labels.append(row[0])
            texts.append("\t".join(row[1:]))
model = make_pipeline(TfidfVectorizer(sublinear_tf=True), MultinomialNB(alpha=0.01))
model.fit(texts, labels)
app = FastAPI()


class Texts(BaseModel):
    texts: list[str]


@app.post("/v1/models/sms/classify")
def classify(request: Texts):
    probabilities = model.predict_proba(request.texts)
    classes = model.classes_
    return {
        "model": "sms",
        "predictions": [
            {"label": classes[p.argmax()], "probability": float(p.max())} for p in probabilities
        ],
    }
