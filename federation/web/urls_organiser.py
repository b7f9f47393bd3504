"""The organiser's API tokens, under /jarjestaja/."""

from django.urls import path

from federation.web import views

app_name = "federation"
urlpatterns = [
    path("tunnukset/", views.token_list, name="tokens"),
    path("tunnukset/<int:pk>/peru/", views.token_revoke, name="token_revoke"),
    path("tuo-kisa/", views.upload, name="upload"),
]
