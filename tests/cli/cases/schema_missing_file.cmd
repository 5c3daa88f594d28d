schema /nonexistent/plant.db
